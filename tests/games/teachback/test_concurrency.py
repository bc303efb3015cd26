"""Simultaneous requests on PostgreSQL: row locks and unique constraints keep one sentence per
team and one score row per criterion, whatever the interleaving."""

import threading

import pytest
from django.db import connection, connections

from games.models import Assessment, CriterionScore, TeachBack
from games.teachback import services
from tests.conftest import skip_without_server
from tests.games.conftest import (
    GOOD_SENTENCE,
    make_table,
)

pytestmark = pytest.mark.django_db(transaction=True)
THREADS = 6


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        skip_without_server("Concurrency needs PostgreSQL row locks (set DATABASE_URL)")


def run_together(work) -> list[Exception]:
    """Run `work(i)` in THREADS threads released at the same moment; return their errors."""
    barrier = threading.Barrier(THREADS)
    errors: list[Exception] = []

    def worker(i):
        try:
            barrier.wait()
            work(i)
        except Exception as exc:  # noqa: BLE001  (collected and asserted on below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_simultaneous_first_sentences_of_one_team_make_one_row(
    open_session, students, device_client
):
    finished = make_table(open_session, students)
    team = finished.teams[0]
    binding = device_client(open_session, finished.members[0]).binding

    def send(i):
        services.teachback_submit(
            team=team, fields={**GOOD_SENTENCE, "because": f"so it helps {i}"}, by_device=binding
        )

    assert run_together(send) == []
    saved = TeachBack.objects.get(team=team)
    # The first one creates it, each different later one revises it.
    assert saved.revision == THREADS


def test_simultaneous_saves_of_one_assessment_keep_one_row_per_criterion(
    open_session, students, device_client, teacher
):
    finished = make_table(open_session, students)
    binding = device_client(open_session, finished.members[0]).binding
    teachback = services.teachback_submit(
        team=finished.teams[0], fields=GOOD_SENTENCE, by_device=binding
    )

    def save(i):
        services.assessment_save(
            teachback=teachback,
            scores={"complete": i % 4, "right_jobs": 1, "mission_link": 2, "said_clearly": None},
            comment=f"save {i}",
            by=teacher,
        )

    assert run_together(save) == []
    assert Assessment.objects.count() == 1
    assert CriterionScore.objects.count() == 4
