from classroom.demo import load_demo
from classroom.models import Session, SessionStatus, Student


def test_demo_loads_once_with_an_upcoming_draft_session(db):
    load_demo()
    load_demo()
    session = Session.objects.get()
    assert session.status == SessionStatus.DRAFT
    assert Student.objects.count() == 24
