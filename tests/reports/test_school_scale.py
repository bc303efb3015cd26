"""A school's pages make the same number of queries however many classes it has: the insights
and reports of one class, and the administrator's overview of them all (the figures in time are
benchmarks/bench_insights.py's; this holds the count that keeps them)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom.models import Classroom, GameKind
from reports.demo import seed_class

# Each page's queries, whole request (session, user, access check, report, template).
BOUNDS = {
    "class_insights": 8,
    "class_progress": 14,
    "session_insights": 6,
    "school_overview": 10,
}


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def _pages(classroom) -> dict[str, str]:
    session = classroom.sessions.filter(game=GameKind.BOT_BUILDERS).order_by("date").first()
    return {
        "class_insights": reverse("reports:class_insights", args=[classroom.pk]),
        "class_progress": reverse("reports:class_progress", args=[classroom.pk]),
        "session_insights": reverse("reports:session_insights", args=[session.pk]),
        "school_overview": reverse("reports:school_overview"),
    }


@pytest.mark.parametrize("page", sorted(BOUNDS))
def test_page_queries_do_not_grow_with_the_school(school_admin_client, classroom, page):
    seed_class(classroom, students=8, sessions=3, seed=5, three_laws_every=3)
    url = _pages(classroom)[page]
    one_class = _queries(school_admin_client, url)
    for number in range(2, 5):
        other = Classroom.objects.create(
            school=classroom.school, teacher=classroom.teacher, name=f"Room {number}"
        )
        seed_class(other, students=6, sessions=number, seed=number, three_laws_every=2)
    assert _queries(school_admin_client, url) == one_class
    assert one_class <= BOUNDS[page], one_class
