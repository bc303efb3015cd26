"""What report PDFs cost: one class progress PDF for a class of 30 over 20 sessions, and a whole-
school export (every class's PDF, fanned out over the workers, then zipped) with 1 and 2 workers.

    .venv/bin/python benchmarks/bench_reports.py [--classes 40] [--class-sessions 10] [--runs 3]

With DATABASE_URL naming PostgreSQL, the data goes to a database of its own on that server
(`<name>_bench_reports`, created and dropped here); otherwise to a temporary SQLite file. The
broker is REDIS_URL when set (give it a database number of its own) or a temporary SQLite broker.
The workers are real `celery -A config worker` processes (prefork, one child per worker), timed
from the Export click to the ZIP being ready, as the administrator would wait for it.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import harness  # noqa: E402


def _start_worker(concurrency: int, log: Path) -> subprocess.Popen:
    celery = Path(sys.executable).with_name("celery")
    return subprocess.Popen(
        [
            str(celery),
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            f"--concurrency={concurrency}",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def _stop(worker: subprocess.Popen) -> None:
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=60)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def _wait_ready(export, timeout: float = 900.0) -> float:
    from reports.models import ExportStatus

    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        export.refresh_from_db()
        if export.status == ExportStatus.READY:
            return time.perf_counter() - started
        if export.status == ExportStatus.FAILED:
            raise SystemExit(f"Export failed: {export.error}")
        time.sleep(0.05)
    raise SystemExit(f"Export {export.pk} not ready after {timeout:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classes", type=int, default=40, help="classes in the school export")
    parser.add_argument("--class-students", type=int, default=24)
    parser.add_argument("--class-sessions", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3, help="runs of the single class PDF")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        where = harness.database_of_its_own(tmp, "bench_reports")
        try:
            _run(args, tmp, where)
        finally:
            harness.drop_database_of_its_own()


def _run(args, tmp: Path, where: str) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone
    from pypdf import PdfReader

    from classroom.models import Classroom, Role, School, User
    from reports import documents, screens, services
    from reports.demo import seed_class, seed_school
    from reports.models import Export, ExportKind
    from reports.pdf import html_to_pdf

    print(f"bench_reports: {where}; {os.cpu_count()} CPUs")
    call_command("migrate", verbosity=0)
    school = School.objects.create(name="Benchmark Elementary")
    teacher = User.objects.create_user("t@bench.test", "x", school=school, role=Role.TEACHER)
    admin = User.objects.create_user("a@bench.test", "x", school=school, role=Role.ADMINISTRATOR)

    # 1. One class progress PDF: 30 students, 20 sessions.
    started = time.perf_counter()
    big = Classroom.objects.create(school=school, teacher=teacher, name="Room 30")
    seed_class(big, students=30, sessions=20, seed=7)
    print(f"seeded a class of 30 x 20 sessions in {time.perf_counter() - started:.1f} s")
    export = Export(kind=ExportKind.CLASS, parameters={"classroom": big.pk}, school=school)
    data_ms, html_ms, pdf_ms, total_ms = [], [], [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        ctx = screens.class_screen(big)
        t1 = time.perf_counter()
        html = documents.render_html(documents.Document("reports/pdf/class_progress.html", ctx))
        t2 = time.perf_counter()
        pdf = html_to_pdf(html, images=[c.uri for c in ctx["charts"]])
        t3 = time.perf_counter()
        documents.render_pdf(export)  # the whole path the worker runs, end to end
        t4 = time.perf_counter()
        data_ms.append((t1 - t0) * 1000)
        html_ms.append((t2 - t1) * 1000)
        pdf_ms.append((t3 - t2) * 1000)
        total_ms.append((t4 - t3) * 1000)
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    print(
        f"class progress PDF (30 students x 20 sessions, {len(pdf) // 1024} KB, {pages} pages), "
        f"median of {args.runs}:\n"
        f"  queries + charts {statistics.median(data_ms):7.0f} ms\n"
        f"  template         {statistics.median(html_ms):7.0f} ms\n"
        f"  WeasyPrint       {statistics.median(pdf_ms):7.0f} ms\n"
        f"  end to end       {statistics.median(total_ms):7.0f} ms"
    )
    # Archived: kept out of the school export below (rubrics protect a class from deletion).
    big.archived_at = timezone.now()
    big.save(update_fields=["archived_at"])

    # 2. The whole-school export with 1 and 2 workers.
    started = time.perf_counter()
    seed_school(
        school,
        teacher,
        classes=args.classes,
        students=args.class_students,
        sessions=args.class_sessions,
    )
    print(
        f"seeded {args.classes} classes of {args.class_students} x {args.class_sessions} "
        f"sessions in {time.perf_counter() - started:.1f} s"
    )
    warm = Classroom.objects.create(school=school, teacher=teacher, name="Warm-up")
    timings = {}
    for workers in (1, 2):
        worker = _start_worker(workers, tmp / f"worker-{workers}.log")
        try:
            # A small export first: the worker is up and its children have imported everything.
            probes = [services.export_request(target=warm, by=u)[0] for u in (teacher, admin)]
            for probe in probes:
                _wait_ready(probe, timeout=120)
            warm.archived_at = timezone.now()
            warm.save(update_fields=["archived_at"])  # not part of the school export
            export, _ = services.export_request(target=school, by=admin)
            timings[workers] = _wait_ready(export)
            size = Path(export.file.path).stat().st_size
        finally:
            _stop(worker)
        warm.archived_at = None
        warm.save(update_fields=["archived_at"])
        print(
            f"school export, {args.classes} classes, {workers} worker(s): "
            f"{timings[workers]:.1f} s ({size // 1024} KB ZIP, "
            f"{timings[workers] / args.classes * 1000:.0f} ms per class)"
        )
    print(f"speed-up with 2 workers: {timings[1] / timings[2]:.2f}x")


if __name__ == "__main__":
    main()
