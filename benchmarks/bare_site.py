"""The yardstick of bench_live_serving.py: bare Django (startproject's middleware) answering 204
after one `cache.get` on the same Redis, served like BotBench (WSGI or ASGI)."""

import os

SECRET_KEY = "bench-only-not-secret"  # noqa: S105
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "bare_site"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
DATABASES = {}
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "KEY_PREFIX": "bare",
    }
}
USE_TZ = True


def empty(request):
    from django.core.cache import cache
    from django.http import HttpResponse

    cache.get("bare:key")
    return HttpResponse(status=204)


def _urls():
    from django.urls import path

    return [path("", empty)]


urlpatterns = _urls()

if os.environ.get("DJANGO_SETTINGS_MODULE") == "bare_site":
    from django.core.asgi import get_asgi_application
    from django.core.wsgi import get_wsgi_application

    application = get_wsgi_application()
    asgi_application = get_asgi_application()
