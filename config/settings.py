"""BotBench settings, read from the environment.

With no variables set, everything runs on embedded defaults: SQLite in `var/`, a Celery broker on a
SQLite file (kombu's SQLAlchemy transport) and file-based caching, so a fresh machine needs no
server. Production sets DATABASE_URL, REDIS_URL and the DJANGO_* variables listed in the README.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("BOTBENCH_VAR_DIR", BASE_DIR / "var"))

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_secret(name: str) -> str | None:
    """NAME, or the contents of the file NAME_FILE points at (Docker secrets)."""
    value = os.environ.get(name)
    path = os.environ.get(f"{name}_FILE")
    if value and path:
        raise ImproperlyConfigured(f"Set {name} or {name}_FILE, not both.")
    if path:
        try:
            return Path(path).read_text().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE cannot be read: {exc}") from None
    return value or None


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = env_secret("DJANGO_SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG=0.")
    # Development only: never used once DEBUG is off (the check above refuses to start).
    SECRET_KEY = "django-insecure-development-only-key-botbench"  # noqa: S105

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# How many reverse proxies in front of the web processes append to X-Forwarded-For (the login and
# join throttles count per client address, not per proxy).
BOTBENCH_PROXY_HOPS = env_int("BOTBENCH_PROXY_HOPS", 0)


def env_budget(name: str, default: int) -> int:
    value = env_int(name, default)
    if value < 1:
        raise ImproperlyConfigured(f"{name} must be at least 1, not {value}.")
    return value


# Throttles, counted in the shared cache in fixed windows: how many wrong passwords and wrong room
# codes each party may send per window. docs/throttles.md has the arithmetic behind the numbers.
# Logins: one account gets a small budget (a real teacher's way back before the window ends is the
# password reset), one address a larger one (a school's staff share it).
BOTBENCH_LOGIN_WINDOW_MINUTES = env_budget("BOTBENCH_LOGIN_WINDOW_MINUTES", 15)
BOTBENCH_LOGIN_ACCOUNT_LIMIT = env_budget("BOTBENCH_LOGIN_ACCOUNT_LIMIT", 10)
BOTBENCH_LOGIN_ADDRESS_LIMIT = env_budget("BOTBENCH_LOGIN_ADDRESS_LIMIT", 100)
# Room codes: one browser gets a small budget, one address (a whole school) a much larger one.
BOTBENCH_JOIN_WINDOW_MINUTES = env_budget("BOTBENCH_JOIN_WINDOW_MINUTES", 10)
BOTBENCH_JOIN_BROWSER_LIMIT = env_budget("BOTBENCH_JOIN_BROWSER_LIMIT", 10)
BOTBENCH_JOIN_ADDRESS_LIMIT = env_budget("BOTBENCH_JOIN_ADDRESS_LIMIT", 300)
# The address phones and e-mails use (join links, QR codes, invitations). Unset: the address the
# teacher's browser used, which is right on a school network only if the teacher used it too.
SITE_URL = os.environ.get("BOTBENCH_SITE_URL", "").strip().rstrip("/")

INSTALLED_APPS = [
    "classroom",
    "games",
    "reports",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    # django-lti: BotBench's signing keys (lti_tool.Key, rotate_keys); see classroom/lti/.
    "lti_tool",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "classroom.middleware.NoStoreMiddleware",
    # A request that meets a database connection PostgreSQL ended: run again where safe, else a
    # "try again" page (classroom.ended_connections). Above every layer that reads the database.
    "classroom.ended_connections.EndedConnectionMiddleware",
    # Answers the polls whose screen is current, before the layers only pages need.
    "games.middleware.UnchangedPollMiddleware",
    # An LMS's iframe: cookies SameSite=None and framing by that LMS, only for a browser that
    # arrived by a valid LTI launch (classroom/lti/frame.py). Before the layers that set them.
    "classroom.lti.frame.LtiFrameMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the device's remembered choice (the `django_language` cookie), else the
    # browser's; a signed-in adult's own choice wins (classroom.language). See docs/i18n.md.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A signed-in adult's own language (classroom.language), after AuthenticationMiddleware.
    # Last because it is sync only: under ASGI (the stream tier, `make run`) Django runs every
    # middleware below a sync-only one in async mode, each of its hooks a hop to a thread and
    # back; with the sync-only one last, the chain hops once, to the view.
    "classroom.language.UserLanguageMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "classroom.language.context",
            ],
        },
    },
]

# Database: SQLite in var/ unless DATABASE_URL names another (PostgreSQL in production).
DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'botbench.sqlite3'}"
try:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
except ValueError as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from None
# DATABASE_POOLER names what sits between the site and PostgreSQL: nothing (each process pools
# its own connections), or "pgbouncer" in transaction pooling (config/database.py says what that
# changes).
DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "")
if DATABASE_POOLER not in ("", "pgbouncer"):
    raise ImproperlyConfigured(
        f'DATABASE_POOLER must be empty or "pgbouncer", not {DATABASE_POOLER!r}.'
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    from config.database import check_connection

    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DATABASE_POOL_MIN", 1),
        "max_size": env_int("DATABASE_POOL_MAX", 10),
        # Each connection is tested as it leaves the pool, so one whose server process was ended
        # (pg_terminate_backend, a database restart, a failover) is replaced instead of failing
        # the request that drew it; without a round trip while its socket is quiet.
        "check": check_connection,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps connections, not Django
    # Queries a pooled connection repeats (a device's seat check, a move's lock and write) are
    # prepared once by psycopg and then only executed: PostgreSQL took 0.6 ms to plan the seat
    # check's five-table join and 0.02 ms to run it. Behind PgBouncer they are off unless asked
    # for (PgBouncer 1.21+ with max_prepared_statements carries them; older ones do not).
    if env_bool("DATABASE_PREPARED_STATEMENTS", DATABASE_POOLER != "pgbouncer"):
        DATABASES["default"]["OPTIONS"].update(server_side_binding=True, prepare_threshold=5)
    if DATABASE_POOLER == "pgbouncer":
        # A server-side cursor lives in a server connection past its transaction, which
        # transaction pooling hands to another client meanwhile.
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"].setdefault("TEST", {})["NAME"] = os.environ.get(
        "DATABASE_TEST_NAME", "test_botbench"
    )
else:
    # The web server and the worker write to one SQLite file at once. WAL lets readers carry on
    # beside a writer, IMMEDIATE takes the write lock when a transaction starts (so two writers
    # queue on the busy timeout instead of one failing at its first write), and the timeout is
    # how long a writer waits.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )
    # Tests run the worker in another thread: an in-memory shared-cache database locks whole
    # tables between connections ("database table is locked", which no timeout waits out), so the
    # test database is a real file like the one `make run` uses.
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(VAR_DIR / "test_botbench.sqlite3")
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "classroom.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "classroom:dashboard"
LOGOUT_REDIRECT_URL = "login"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Event streams (games/streams.py). Each stream process runs the streams' short sync calls
# (middleware, the checks at connect) on a pool of this many threads, shared by all its streams;
# an idle stream holds none.
STREAM_SYNC_THREADS = env_budget("BOTBENCH_STREAM_SYNC_THREADS", 4)
# Streams one device (its cookie; an adult's browser) may hold in a stream process: a page holds
# one, so 4 leaves room for a few tabs. Opening one more ends the device's oldest.
STREAMS_PER_DEVICE = env_budget("BOTBENCH_STREAMS_PER_DEVICE", 4)
# Past STREAM_OPEN_BURST opens at once, a device (or an address without cookies) may open one
# stream every STREAM_REOPEN_SECONDS; faster ones are answered 429 before any work. A page
# re-opens its stream 2 s after a drop at the soonest, and htmx backs off from 0.5 s to a minute
# after a 429.
STREAM_OPEN_BURST = env_budget("BOTBENCH_STREAM_OPEN_BURST", 8)
STREAM_REOPEN_SECONDS = env_budget("BOTBENCH_STREAM_REOPEN_SECONDS", 2)
# Streams one client address may hold in a stream process, the oldest ended likewise. A school
# puts every phone behind one public address (NAT): 30 phones and a teacher's screens a class,
# so 400 holds a dozen classes at once. It bounds what a script changing cookies can hold; a
# stream costs no thread (about 10 KB), so it can be large.
STREAMS_PER_ADDRESS = env_budget("BOTBENCH_STREAMS_PER_ADDRESS", 400)
# LTI Dynamic Registration reads an LMS's configuration and posts to its registration endpoint:
# over HTTPS only, unless this allows http://localhost and http://127.0.0.1 (development, tests).
LTI_ALLOW_LOOPBACK_HTTP = env_bool("BOTBENCH_LTI_ALLOW_LOOPBACK_HTTP", DEBUG)

# Redis, when set, is the Celery broker and the cache shared by every web process.
REDIS_URL = os.environ.get("REDIS_URL") or None
# The cache holds nothing that cannot be rebuilt, so while Redis is down or full the backend
# degrades to "empty" instead of raising (config/cache.py), and waits at most
# REDIS_CACHE_TIMEOUT seconds for an answer.
REDIS_CACHE_TIMEOUT = env_float("REDIS_CACHE_TIMEOUT", 1.0)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.DegradingRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("BOTBENCH_CACHE_PREFIX", "botbench"),
            "OPTIONS": {
                "socket_connect_timeout": REDIS_CACHE_TIMEOUT,
                "socket_timeout": REDIS_CACHE_TIMEOUT,
            },
        }
    }
else:
    # A file cache, not local memory: the web server and the worker are separate processes.
    # Past MAX_ENTRIES it deletes a third of its files at random, throttle counters included
    # (a class of 30 alone keeps 30 of them), so allow far more than the default 300.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
            # Lets a second process (a test's stream server) share one test's keys.
            "KEY_PREFIX": os.environ.get("BOTBENCH_CACHE_PREFIX", ""),
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }

CELERY_BROKER_URL = (
    REDIS_URL
    or os.environ.get("BOTBENCH_BROKER_URL")
    or f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
)
# Job rows in the database are the truth pages show; Celery keeps no results.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_MAX_TASKS_PER_CHILD = env_int("CELERY_WORKER_MAX_TASKS_PER_CHILD", 50)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = False
# Redis redelivers an unacknowledged task after this many seconds (a worker killed mid-render).
# The SQLAlchemy transport passes its options to create_engine, so it gets none.
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 600)} if REDIS_URL else {}
)

# Reports (see reports/services/sweep.py): a rendering worker touches its export every
# REPORTS_HEARTBEAT_SECONDS; three missed beats and the sweeper queues the export again (up to
# REPORTS_MAX_ATTEMPTS attempts), without waiting for the visibility timeout. A queued export no
# worker started for REPORTS_RESEND_SECONDS has its task sent again (the send may have failed
# while Redis was down). An export still rendering REPORTS_STUCK_MINUTES after it first started
# is marked failed. Celery beat sweeps every REPORTS_SWEEP_SECONDS: one beat process for the whole
# site (compose's and Kubernetes' `beat`; inside the single worker of `make run`), as each beat
# sends every entry.
REPORTS_HEARTBEAT_SECONDS = env_float("REPORTS_HEARTBEAT_SECONDS", 10)
REPORTS_MAX_ATTEMPTS = env_int("REPORTS_MAX_ATTEMPTS", 3)
REPORTS_RESEND_SECONDS = env_float("REPORTS_RESEND_SECONDS", 120)
REPORTS_STUCK_MINUTES = env_float("REPORTS_STUCK_MINUTES", 15)
REPORTS_SWEEP_SECONDS = env_float("REPORTS_SWEEP_SECONDS", 15)
# LTI Advantage services (classroom/lti): every request to a platform gives up after
# LTI_SERVICE_TIMEOUT_SECONDS; a score the platform could not take is sent again after
# LTI_SCORE_RETRY_SECONDS, doubling each attempt up to LTI_SCORE_RETRY_MAX_SECONDS, for at most
# LTI_SCORE_MAX_ATTEMPTS attempts (it then waits for the beat's sweep or the teacher's "send
# again"). The sweep resends waiting scores every LTI_SCORE_SWEEP_SECONDS.
LTI_SERVICE_TIMEOUT_SECONDS = env_float("LTI_SERVICE_TIMEOUT_SECONDS", 10)
LTI_SCORE_RETRY_SECONDS = env_float("LTI_SCORE_RETRY_SECONDS", 30)
LTI_SCORE_RETRY_MAX_SECONDS = env_float("LTI_SCORE_RETRY_MAX_SECONDS", 1800)
LTI_SCORE_MAX_ATTEMPTS = env_int("LTI_SCORE_MAX_ATTEMPTS", 10)
LTI_SCORE_SWEEP_SECONDS = env_float("LTI_SCORE_SWEEP_SECONDS", 900)
CELERY_BEAT_SCHEDULE = {
    "sweep-exports": {"task": "reports.sweep_exports", "schedule": REPORTS_SWEEP_SECONDS},
    "sweep-lti-scores": {"task": "classroom.lti_scores_sweep", "schedule": LTI_SCORE_SWEEP_SECONDS},
    # Django's `clearsessions`: expired sessions stay in their table until deleted. At each full
    # hour of the clock, not an hour after beat started, so a restart does not put it off.
    "clear-expired-sessions": {
        "task": "classroom.clear_expired_sessions",
        "schedule": crontab(minute=0),
    },
}
# Beat keeps its schedule in memory: the sweeper runs every few seconds and the sessions' clearing
# at each full hour, so nothing is lost when it restarts. Celery's default keeps it in a shelve
# file, which Python 3.13 writes through SQLite; beat died at start-up when SQLite answered
# "locking protocol", and with it the sweeper, leaving a killed worker's export rendering for good.
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"

LANGUAGE_CODE = "en"
# Every user-facing string is in English and Spanish (locale/es). The engines stay in ids and
# English; the display layer translates (docs/i18n.md).
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A device's choice outlives the browser session, like its seat; it holds no personal data.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("BOTBENCH_TIME_ZONE", "America/New_York")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", VAR_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Django 6.1 mailers: the console in development, SMTP in production.
if DEBUG and not os.environ.get("DJANGO_EMAIL_HOST"):
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("DJANGO_EMAIL_HOST", "localhost"),
                "port": env_int("DJANGO_EMAIL_PORT", 25),
                "username": os.environ.get("DJANGO_EMAIL_HOST_USER", ""),
                "password": env_secret("DJANGO_EMAIL_HOST_PASSWORD") or "",
                "use_tls": env_bool("DJANGO_EMAIL_USE_TLS", False),
                # An unreachable mail server must not hold a page (an invitation) for minutes.
                "timeout": env_int("DJANGO_EMAIL_TIMEOUT", 10),
            },
        }
    }
DEFAULT_FROM_EMAIL = os.environ.get(
    "DJANGO_DEFAULT_FROM_EMAIL", "BotBench <noreply@botbench.local>"
)

# Content Security Policy: only our own scripts, styles and images (QR codes and charts are
# inline SVG or data: images).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

# Django's cached_db sessions, the cached copy kept a minute at most (classroom/sessions.py says
# why); expired rows cleared by beat (CELERY_BEAT_SCHEDULE).
SESSION_ENGINE = "classroom.sessions"
# ModelBackend with the account read by one written-out statement (classroom.statements.ACCOUNT).
AUTHENTICATION_BACKENDS = ["classroom.authentication.AccountBackend"]
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads no cookie; the token travels in hx-headers
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # WeasyPrint narrates every layout step at INFO.
    "loggers": {
        "weasyprint": {"level": "WARNING"},
        "weasyprint.progress": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

VAR_DIR.mkdir(parents=True, exist_ok=True)
if DEBUG:
    # WhiteNoise warns about a missing STATIC_ROOT until collectstatic has run once.
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
