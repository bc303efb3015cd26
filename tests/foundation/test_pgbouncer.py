"""Behind PgBouncer in transaction pooling (DATABASE_POOLER=pgbouncer) nothing may outlive a
transaction on a server connection: no prepared statements (unless asked for, for a PgBouncer
that carries them) and no server-side cursors. `.ci/run` runs the tests marked `pgbouncer`
(moves, polls, exports) through a real one (scripts/pgbouncer-run)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tests.conftest import free_port, skip_or_fail, skip_without_server

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = {"DATABASE_URL": "postgres://someone@db.example.org:6432/botbench"}


def _database(extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    """The default database's settings, read in a process of its own from this environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    env.update(extra_env, DJANGO_SETTINGS_MODULE="config.settings")
    code = (
        "import json, django; django.setup(); from django.conf import settings as s;"
        "d = s.DATABASES['default'];"
        "print(json.dumps({'options': sorted(d['OPTIONS']),"
        " 'cursors_off': d.get('DISABLE_SERVER_SIDE_CURSORS', False)}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def _settings(extra_env: dict[str, str]) -> dict:
    result = _database(extra_env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_behind_pgbouncer_nothing_outlives_a_transaction():
    behind = _settings({**POSTGRES, "DATABASE_POOLER": "pgbouncer"})
    assert "prepare_threshold" not in behind["options"]
    assert "server_side_binding" not in behind["options"]
    assert behind["cursors_off"] is True
    # Each process still pools its connections to PgBouncer.
    assert "pool" in behind["options"]


def test_without_a_pooler_repeated_queries_are_prepared_and_cursors_stay():
    direct = _settings(POSTGRES)
    assert {"prepare_threshold", "server_side_binding", "pool"} <= set(direct["options"])
    assert direct["cursors_off"] is False


def test_a_pgbouncer_that_carries_prepared_statements_may_have_them():
    """PgBouncer 1.21+ with max_prepared_statements tracks them: the district says so."""
    asked = _settings(
        {**POSTGRES, "DATABASE_POOLER": "pgbouncer", "DATABASE_PREPARED_STATEMENTS": "1"}
    )
    assert "prepare_threshold" in asked["options"]
    assert asked["cursors_off"] is True


def test_an_unknown_pooler_is_refused_at_start():
    result = _database({**POSTGRES, "DATABASE_POOLER": "pgpool"})
    assert result.returncode != 0
    assert "DATABASE_POOLER must be empty or" in result.stderr


# Client A repeats a query until psycopg prepares it, on the server connection PgBouncer lent it.
# Client B then holds that server connection in a transaction, so A's next statement runs on
# another one, which never saw A's prepared statement. Django's own connections in two threads,
# with this run's settings (DATABASE_POOLER=pgbouncer from scripts/pgbouncer-run).
TWO_CLIENTS = """
import os, threading
os.environ["DATABASE_URL"] = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/" + os.environ[
    "DATABASE_TEST_NAME"
]
import django
django.setup()
from django.db import connection, transaction

holding, done = threading.Event(), threading.Event()

def hold():
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        holding.set()
        done.wait(30)
    connection.close()

def ask(n):
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [n])
        return cursor.fetchone()[0]

for n in range(8):
    assert ask(n) == n + 1
other = threading.Thread(target=hold)
other.start()
holding.wait(30)
try:
    print("answer", ask(41))
finally:
    done.set()
    other.join()
"""


def _two_clients_through_pgbouncer(extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    env.update(
        extra_env,
        PGBOUNCER_PORT=str(free_port()),
        DATABASE_TEST_NAME=f"test_botbench_pgbouncer_{os.getpid()}",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return subprocess.run(
        [str(ROOT / "scripts" / "pgbouncer-run"), sys.executable, "-c", TWO_CLIENTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_through_a_real_pgbouncer_a_statement_never_meets_another_connection():
    """Against Debian's PgBouncer in transaction pooling: with this site's settings the query
    runs wherever PgBouncer sends it; with prepared statements forced on, the same two clients
    fail, which is why they are off there."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        skip_without_server("PgBouncer pools PostgreSQL (set DATABASE_URL)")
    if not (shutil.which("pgbouncer") or Path("/usr/sbin/pgbouncer").exists()):
        skip_or_fail("pgbouncer is not installed (apt-get install pgbouncer)")
    pooled = _two_clients_through_pgbouncer({})
    assert pooled.returncode == 0, pooled.stderr[-2000:]
    assert "answer 42" in pooled.stdout

    forced = _two_clients_through_pgbouncer({"DATABASE_PREPARED_STATEMENTS": "1"})
    assert forced.returncode != 0
    assert re.search(r'prepared statement "\S+" does not exist', forced.stderr), forced.stderr
