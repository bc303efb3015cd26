"""Live screens' requests beside bare Django, under WSGI and ASGI, with wrk, in one run.

    .venv/bin/python benchmarks/bench_live_serving.py [--seconds 5] [--rounds 3]

For each server (`granian`: granian's WSGI, as compose serves the web tier; `wsgi`: gunicorn
gthread; `asgi`: gunicorn with uvicorn workers; same worker count) and each request, wrk runs
`--seconds` at `--connections`; rounds interleave the requests so a busy moment of the shared
machine hits them all.

One worker process by default: the ratios compare what a request costs, and with two workers
a round measured how wrk's kept-alive connections happened to fall between them rather than
the request. Each worker accepts whichever connections it wakes for first and keeps them, so
some rounds had both workers busy and others one (bare Django, 2 workers, one run: 1,620-3,475
req/s, bimodal; 1 worker, the same hour: 1,710-1,835). One worker has a core of its own
and wrk the other. Requests:

- bare: bare Django 204 (startproject's middleware, one cache.get): benchmarks/bare_site.py
- poll-unchanged: a team device's poll when nothing changed (204, no query)
- device-redraw: the same poll with a stale fingerprint (permission check + region)
- grid-redraw: the teacher's projector grid, re-drawn
- dashboard-redraw: the teacher's tables dashboard's live region, re-drawn (its tables as they
  were: each row from the cache, as the two rows of the tables that did not move are after a
  move)
- page: the teacher's tables dashboard page (a whole ordinary page)

Prints requests/s (median and range of the rounds) and each request's ratio to bare under the
same server: of the medians, and of the best rounds; with `granian` and `wsgi` both served, also
each request's throughput under granian over gunicorn's, and granian's requests beside bare
Django under gunicorn, the yardstick the issue's own figures were measured with. The machine is
shared, and a neighbour's burst slows a round now and then (bare alone, six rounds in a row:
1,700 to 1,930 req/s, and one of 723); interference only ever slows a round, so a request's best
round is the nearest to what it costs itself. PostgreSQL + Redis on loopback: creates its own
database (`botbench_bench_serving`, dropped after) and uses Redis db `--redis-db` with its own
key prefix.
"""

from __future__ import annotations

import argparse
import re
import secrets
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1, help="see above")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--servers", default="granian,wsgi,asgi")
    parser.add_argument("--db-name", default="botbench_bench_serving")
    parser.add_argument("--redis-db", type=int, default=7)
    parser.add_argument(
        "--site-root",
        type=Path,
        default=harness.ROOT,
        help="a checkout of BotBench to serve (e.g. an older commit, to measure the before)",
    )
    return parser.parse_args()


def seed(env: dict[str, str], site_root: Path) -> dict[str, tuple[str, str]]:
    """One class (15 teams at 3 tables, started); returns {name: (path, cookie)}."""
    harness.setup_django(env, site_root)
    from django.test import Client

    (seeded,) = harness.seed_classes(
        school="Serving Bench Elementary", domain="serving.test", classes=1
    )
    session = seeded.session
    device = Client()
    name, _, value = seeded.devices[0].cookie.partition("=")
    device.cookies[name] = value
    desk = Client()
    desk.force_login(seeded.teacher)

    def cookie(client: Client) -> str:
        return "; ".join(f"{k}={m.value}" for k, m in client.cookies.items())

    html = device.get("/play/", HTTP_HOST="127.0.0.1").content.decode()
    poll = re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', html).group(1).replace("&amp;", "&")
    grid = desk.get(f"/play/sessions/{session.pk}/projector/", HTTP_HOST="127.0.0.1")
    grid_poll = re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', grid.content.decode()).group(1)
    grid_poll = grid_poll.replace("&amp;", "&")
    page = f"/play/sessions/{session.pk}/tables/"
    desk_html = desk.get(page, HTTP_HOST="127.0.0.1").content.decode()
    desk_poll = re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', desk_html).group(1)
    desk_poll = desk_poll.replace("&amp;", "&")
    return {
        "poll-unchanged": (poll, cookie(device)),
        "device-redraw": (re.sub(r"v=[^&]+", "v=stale", poll), cookie(device)),
        "grid-redraw": (re.sub(r"v=[^&]+", "v=stale", grid_poll), cookie(desk)),
        "dashboard-redraw": (re.sub(r"v=[^&]+", "v=stale", desk_poll), cookie(desk)),
        "page": (page, cookie(desk)),
    }


def wrk(args, port: int, path: str, cookie: str, htmx: bool) -> float:
    command = ["wrk", "-t1", f"-c{args.connections}", f"-d{int(args.seconds)}s", "--latency"]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    if htmx:
        command += ["-H", "HX-Request: true"]
    out = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True
    ).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non_2xx:
        raise RuntimeError(f"{path}: {non_2xx.group(1)} error responses\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def share(rate: float, of: float) -> float:
    # A short run on a busy machine can finish no slow request at all: wrk says 0 req/s.
    return rate / of if of else float("nan")


def serve(kind: str, args, env, app: str, cwd: Path, ready_path: str = "/healthz"):
    """One server of `kind`, the same size for the site and for bare Django."""
    if kind == "granian":
        return harness.granian(
            app, env=env, workers=args.workers, threads=args.threads, cwd=cwd, ready_path=ready_path
        )
    return harness.gunicorn(
        app,
        env=env,
        workers=args.workers,
        worker_class=harness.WORKER_CLASS[kind],
        threads=args.threads if kind == "wsgi" else None,
        cwd=cwd,
        ready_path=ready_path,
    )


def main() -> int:
    args = parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)")
        return 1
    results: dict[tuple[str, str], list[float]] = {}
    with harness.prepared_site(
        "botbench-serving-",
        db_name=args.db_name,
        redis_db=args.redis_db,
        pool_max=args.threads + 2,
        cache_prefix=f"bench-serving-{secrets.token_hex(4)}",
        tree=args.site_root,
    ) as (env, _):
        targets = seed(env, args.site_root)
        bare_env = {**env, "DJANGO_SETTINGS_MODULE": "bare_site"}
        for kind in args.servers.split(","):
            asgi = kind == "asgi"
            app = "config.asgi:application" if asgi else "config.wsgi:application"
            bare_app = "bare_site:asgi_application" if asgi else "bare_site:application"
            with (
                serve(kind, args, env, app, args.site_root) as site,
                # The bare site has no /healthz: any answer shows it is up.
                serve(kind, args, bare_env, bare_app, harness.ROOT / "benchmarks", "/") as bare,
            ):
                for _ in range(args.rounds):
                    rate = wrk(args, bare.port, "/", "", False)
                    results.setdefault((kind, "bare"), []).append(rate)
                    for name, (path, cookie) in targets.items():
                        rate = wrk(args, site.port, path, cookie, name != "page")
                        results.setdefault((kind, name), []).append(rate)
        print(
            f"{args.workers} workers ({args.threads} threads under WSGI), wrk -c"
            f"{args.connections} {args.seconds:.0f} s, {args.rounds} rounds: median [range],"
            " and the ratio to bare's of the median and of the best round"
        )
        for kind in args.servers.split(","):
            bare = results[(kind, "bare")]
            for name in ["bare", *targets]:
                rates = results[(kind, name)]
                median = statistics.median(rates)
                print(
                    f"{kind:4} {name:15} {median:8.0f} req/s [{min(rates):.0f}-{max(rates):.0f}]"
                    f"  {share(median, statistics.median(bare)):5.3f} of bare"
                    f"  (best {share(max(rates), max(bare)):5.3f})"
                )
        served = args.servers.split(",")
        for other in ("asgi", "granian"):
            if "wsgi" not in served or other not in served:
                continue
            for name in ["bare", *targets]:
                ratio = share(
                    statistics.median(results[(other, name)]),
                    statistics.median(results[("wsgi", name)]),
                )
                print(f"{other}/wsgi {name:15} {ratio:5.2f}")
        if "wsgi" in served and "granian" in served:
            # The yardstick: bare Django under gunicorn gthread, as it was measured.
            bare = statistics.median(results[("wsgi", "bare")])
            for name in targets:
                rate = statistics.median(results[("granian", name)])
                print(f"granian {name:15} {share(rate, bare):5.3f} of bare under gunicorn")
        return 0


if __name__ == "__main__":
    sys.exit(main())
