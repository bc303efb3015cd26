"""The dashboard: classes with counts, today's and upcoming sessions, sessions to review."""

import datetime

from django.urls import reverse
from django.utils import timezone

from classroom import selectors, services
from classroom.models import GameKind, Session, SessionStatus


def _session(classroom, days: int, status=SessionStatus.DRAFT, closed_days_ago=None):
    session = Session.objects.create(
        classroom=classroom,
        date=timezone.localdate() + datetime.timedelta(days=days),
        game=GameKind.BOT_BUILDERS,
        status=status,
        title=f"Lesson {days}",
    )
    if closed_days_ago is not None:
        session.closed_at = timezone.now() - datetime.timedelta(days=closed_days_ago)
        session.save()
    return session


def test_teacher_dashboard_lists_classes_with_counts(teacher_client, classroom):
    page = teacher_client.get(reverse("classroom:dashboard")).content.decode()
    assert "Room 12 Robotics" in page and "8 students" in page


def test_upcoming_has_today_and_later_but_not_past_or_closed(teacher, classroom):
    today = _session(classroom, 0)
    later = _session(classroom, 5)
    _session(classroom, -3)
    _session(classroom, 2, SessionStatus.CLOSED)
    assert list(selectors.sessions_upcoming(teacher)) == [today, later]


def test_a_forgotten_open_session_stays_upcoming(teacher, classroom):
    stale = services.session_open(session=_session(classroom, -2), by=teacher)
    assert list(selectors.sessions_upcoming(teacher)) == [stale]


def test_to_review_lists_sessions_closed_in_the_last_two_weeks(teacher_client, classroom):
    recent = _session(classroom, -1, SessionStatus.CLOSED, closed_days_ago=1)
    _session(classroom, -30, SessionStatus.CLOSED, closed_days_ago=30)
    page = teacher_client.get(reverse("classroom:dashboard")).content.decode()
    review = page[page.index("Awaiting assessment") :]
    assert recent.get_absolute_url() in review and "Lesson -30" not in page


def test_colleagues_sessions_do_not_appear(colleague_client, classroom):
    _session(classroom, 1)
    page = colleague_client.get(reverse("classroom:dashboard")).content.decode()
    assert "Room 12 Robotics" not in page and "Lesson 1" not in page


def test_administrator_dashboard_links_to_the_school_page(school_admin_client, classroom):
    page = school_admin_client.get(reverse("classroom:dashboard")).content.decode()
    assert reverse("classroom:school") in page
    assert "Room 12 Robotics" in page
    assert reverse("classroom:class_create") not in page
