"""Student device pages carry no teacher links (Log in, Sign up, the dashboard), and the
teach-back page leads back to the game."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.games.conftest import make_table

TEACHER_LINKS = [reverse("login"), reverse("classroom:signup"), 'href="/"']


@pytest.fixture
def device(open_session, students, device_client):
    finished = make_table(open_session, students, teams=2, per_team=1)
    return device_client(open_session, finished.members[0])


def assert_no_teacher_links(page: str) -> None:
    for link in TEACHER_LINKS:
        assert link not in page, link
    assert "Log in" not in page and "Sign up" not in page


def test_teachback_page_has_no_teacher_links_and_a_way_back_to_the_game(device, open_session):
    page = device.get(reverse("games:teachback", args=[open_session.pk])).content.decode()
    assert "Our robot&#x27;s sentence" in page or "Our robot's sentence" in page
    assert_no_teacher_links(page)
    back = reverse("games:device")
    assert f'<a class="play-bar-link" href="{back}">Back to the game</a>' in page
    assert device.get(back).status_code == 200


def test_game_and_waiting_pages_have_no_teacher_links(device):
    assert_no_teacher_links(device.get(reverse("games:device")).content.decode())
    assert_no_teacher_links(
        device.get(reverse("classroom:device_home"), follow=True).content.decode()
    )


def test_join_pages_have_no_teacher_links(open_session):
    client = Client()
    assert_no_teacher_links(client.get("/join").content.decode())
    assert_no_teacher_links(client.get("/join", {"code": open_session.room_code}).content.decode())
