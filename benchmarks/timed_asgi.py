"""BotBench's ASGI application with each request's server time written to a file (one per
worker process), for bench_lesson_load.py's server-side percentiles. Streams are left out: they
last until the client leaves."""

import os
import time

from config.asgi import application as site

_log = open(f"{os.environ['BENCH_TIMING_LOG']}.{os.getpid()}", "a", buffering=1)  # noqa: SIM115


async def application(scope, receive, send):
    if scope["type"] != "http" or scope["path"].startswith("/play/stream/"):
        return await site(scope, receive, send)
    started = time.perf_counter()
    method, path = scope["method"], scope["path"]

    async def timed_send(message):
        await send(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            _log.write(f"{method} {path} {(time.perf_counter() - started) * 1000:.2f}\n")

    return await site(scope, receive, timed_send)
