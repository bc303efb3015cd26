"""The LMS services' pages in a browser, in English and Spanish, on a phone, a laptop and a
projector: the roster sync's preview and its result, and the gradebook status with a waiting
score (the LMS's words shown) beside sent ones, reached from the teach-back page's lock. axe
checks every state with the WCAG 2.2 AA rules; no page scrolls sideways."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from classroom.lti import grades
from classroom.models import LtiScore, ScoreStatus
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie
from tests.lti.platform.server import PlatformServer
from tests.lti.platform.store import ScoreFault
from tests.lti.services.conftest import enrol_learner, make_graded, make_lms

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": PHONE, "laptop": CHROMEBOOK, "projector": PROJECTOR}
WORDS = {
    "en": {
        "sync": "Sync the roster from the LMS",
        "apply": "Make these changes",
        "synced": "Roster synced: 2 added",
        "lock": "Lock sentences and send the scores to the LMS",
        "status": "LMS gradebook status",
        "waiting": "Waiting to be sent",
    },
    "es": {
        "sync": "Sincronizar la lista desde el LMS",
        "apply": "Hacer estos cambios",
        "synced": "Lista sincronizada: 2 añadidos",
        "lock": "Bloquear oraciones y enviar las calificaciones al LMS",
        "status": "Estado en el libro de calificaciones del LMS",
        "waiting": "En espera de envío",
    },
}


@pytest.fixture
def lms(classroom, teacher):
    """The LMS services' world of tests/lti/services/conftest.py, on a platform of its own."""
    server = PlatformServer().start()
    yield make_lms(server, classroom, teacher)
    server.stop()


@pytest.fixture
def graded(lms, classroom, teacher):
    return make_graded(lms, classroom, teacher)


def no_sideways_scroll(page, size, name):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"{name}: the page scrolls sideways ({width}px)"


@pytest.mark.parametrize("language", ["en", "es"])
def test_roster_sync_preview_and_apply(
    live_server,
    new_context,
    screenshot,
    teacher,
    classroom,
    lms,
    language,
):
    teacher.language = language
    teacher.save(update_fields=["language"])
    words = WORDS[language]
    enrol_learner(lms, "Maya", "Robinson")
    enrol_learner(lms, "Leo", "de la Cruz")
    base = live_server.url
    for size_name, size in SIZES.items():
        context = new_context(size)
        context.add_cookies([{**login_cookie(teacher), "url": base}])
        page = context.new_page()
        page.goto(f"{base}{classroom.get_absolute_url()}")
        page.get_by_role("link", name=words["sync"]).click()
        expect(page.get_by_text("Maya R.")).to_be_visible()
        screenshot(page, f"lti-roster-preview-{language}-{size_name}")
        no_sideways_scroll(page, size, "roster preview")
    page.get_by_role("button", name=words["apply"]).click()
    expect(page.get_by_text(words["synced"])).to_be_visible()
    screenshot(page, f"lti-roster-synced-{language}-projector")
    assert classroom.students.filter(name__in=["Maya R.", "Leo D."]).count() == 2


@pytest.mark.parametrize("language", ["en", "es"])
def test_gradebook_status_from_the_lock(
    live_server,
    new_context,
    screenshot,
    teacher,
    graded,
    language,
):
    teacher.language = language
    teacher.save(update_fields=["language"])
    words = WORDS[language]
    session = graded.session
    base = live_server.url
    graded.lms.store.set_score_fault(ScoreFault.ERROR)
    context = new_context(CHROMEBOOK)
    context.add_cookies([{**login_cookie(teacher), "url": base}])
    page = context.new_page()
    page.goto(f"{base}/play/sessions/{session.pk}/assessments/")
    page.get_by_role("button", name=words["lock"]).click()
    expect(page.get_by_role("link", name=words["status"])).to_be_visible()
    grades.scores_send(link_id=graded.link.pk)
    # Every score waits with the LMS's words; one is then marked as the LMS having taken it.
    first = LtiScore.objects.filter(session=session).first()
    LtiScore.objects.filter(pk=first.pk).update(
        status=ScoreStatus.SENT, sent_version=first.version, message="", sent_at=timezone.now()
    )
    for size_name, size in SIZES.items():
        context = new_context(size)
        context.add_cookies([{**login_cookie(teacher), "url": base}])
        page = context.new_page()
        page.goto(f"{base}/play/sessions/{session.pk}/assessments/")
        page.get_by_role("link", name=words["status"]).click()
        expect(page.get_by_text("the gradebook is down").first).to_be_visible()
        expect(page.get_by_text(words["waiting"]).first).to_be_visible()
        screenshot(page, f"lti-grades-status-{language}-{size_name}")
        no_sideways_scroll(page, size, "gradebook status")
