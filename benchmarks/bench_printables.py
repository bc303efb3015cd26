"""What each printable costs: a cold render (empty cache) and a warm download.

    .venv/bin/python benchmarks/bench_printables.py [--warm-runs 20]

Cold: `printable_pdf` on an empty cache, i.e. rendering the HTML, WeasyPrint, writing the file.
Warm: a GET of the PDF through Django's test client once the file exists, reading the whole
streamed body (the key is recomputed from the rendered HTML on every request, so that is counted).
Runs in a temporary MEDIA_ROOT; needs no database.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm-runs", type=int, default=20)
    args = parser.parse_args()

    import django

    django.setup()
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from games.printables import PRINTABLES, printable_pdf

    setup_test_environment()
    client = Client()
    print(
        f"{'printable':34} {'pages':>5} {'size':>8} {'cold ms':>8} {'warm ms':>8} {'warm p95':>8}"
    )
    with tempfile.TemporaryDirectory() as media, override_settings(MEDIA_ROOT=Path(media)):
        for printable in PRINTABLES:
            started = time.perf_counter()
            pdf = printable_pdf(printable)
            cold = (time.perf_counter() - started) * 1000
            assert pdf.rendered, "the cache was not cold"

            url = reverse("games:printable", args=[printable.slug])
            warm = []
            for _ in range(args.warm_runs):
                started = time.perf_counter()
                response = client.get(url)
                body = b"".join(response.streaming_content)
                warm.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200 and body.startswith(b"%PDF-")
            p95 = statistics.quantiles(warm, n=20)[-1] if len(warm) >= 2 else warm[0]
            print(
                f"{printable.slug:34} {printable.pages:>5} {len(body) // 1024:>6}kB "
                f"{cold:>8.0f} {statistics.median(warm):>8.1f} {p95:>8.1f}"
            )


if __name__ == "__main__":
    main()
