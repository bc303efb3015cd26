"""The address phones are given: BOTBENCH_SITE_URL when set, the teacher's own address otherwise,
a warning on the lobby when that address is one phones cannot reach, and `make run`'s HOST and
PORT."""

import os
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from classroom import links

ROOT = Path(__file__).resolve().parents[2]
WARNING = "Phones cannot open this address."


def lobby(client, session, host="testserver"):
    return client.get(
        reverse("classroom:session_lobby", args=[session.pk]), HTTP_HOST=host
    ).content.decode()


def test_join_link_uses_the_site_url_when_it_is_set(settings, teacher_client, open_session):
    settings.SITE_URL = "http://192.168.1.20:8000"
    page = lobby(teacher_client, open_session, host="localhost")
    code = open_session.room_code
    assert f'<span class="join-link-part">/join?code={code}</span>' in page
    assert '<span class="join-link-part">http://192.168.1.20:8000</span>' in page
    assert WARNING not in page


def test_join_link_follows_the_teachers_address_when_no_site_url(
    settings, teacher_client, open_session
):
    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    settings.SITE_URL = ""
    page = lobby(teacher_client, open_session, host="192.168.1.20")
    assert '<span class="join-link-part">http://192.168.1.20</span>' in page
    assert WARNING not in page


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_lobby_warns_when_phones_cannot_reach_the_address(
    settings, teacher_client, open_session, host
):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
    page = lobby(teacher_client, open_session, host=host)
    assert WARNING in page and "BOTBENCH_SITE_URL" in page


def test_a_site_url_phones_cannot_reach_is_warned_about_too(settings, teacher_client, open_session):
    settings.SITE_URL = "http://localhost:8000"
    assert WARNING in lobby(teacher_client, open_session)


@pytest.mark.parametrize(
    ("link", "unreachable"),
    [
        ("http://127.0.0.1:8000/join?code=A", True),
        ("http://127.1.2.3/join", True),
        ("http://localhost/join", True),
        ("http://app.localhost/join", True),
        ("http://[::1]:8000/join", True),
        ("http://0.0.0.0:8000/join", True),
        ("http://192.168.1.20:8000/join", False),
        ("https://botbench.example.org/join", False),
    ],
)
def test_addresses_phones_cannot_reach(link, unreachable):
    assert links.unreachable_from_phones(link) is unreachable


def test_the_link_wraps_only_before_the_path_with_its_code():
    assert links.join_link_parts("http://192.168.1.20:8000/join?code=ABC234") == [
        "http://192.168.1.20:8000",
        "/join?code=ABC234",
    ]


def test_make_run_takes_host_and_port():
    makefile = (ROOT / "Makefile").read_text()
    assert "HOST ?= 127.0.0.1" in makefile and "PORT ?= 8000" in makefile
    assert "HOST='$(HOST)' PORT='$(PORT)' scripts/run-dev" in makefile
    script = (ROOT / "scripts" / "run-dev").read_text()
    assert '--host "$HOST" --port "$PORT"' in script


@pytest.mark.parametrize("port", ["abc", "0", "70000", "80; rm -rf /"])
def test_run_dev_refuses_a_bad_port_before_starting_anything(port):
    result = subprocess.run(
        [str(ROOT / "scripts" / "run-dev")],
        env={**os.environ, "HOST": "127.0.0.1", "PORT": port},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "PORT must be a number" in result.stderr


def test_session_page_names_the_same_join_address(settings, teacher_client, open_session):
    settings.SITE_URL = "http://192.168.1.20:8000"
    page = teacher_client.get(open_session.get_absolute_url()).content.decode()
    assert "Students join at" in page and ">http://192.168.1.20:8000/join</a>" in page
