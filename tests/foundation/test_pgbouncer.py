"""Behind PgBouncer in transaction pooling (DATABASE_POOLER=pgbouncer) nothing may outlive a
transaction on a server connection: no prepared statements (unless asked for, for a PgBouncer
that carries them) and no server-side cursors. `.ci/run` runs the tests marked `pgbouncer`
(moves, polls, exports) through a real one (scripts/pgbouncer-run)."""

import json
import os
import subprocess
import sys
from pathlib import Path

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
