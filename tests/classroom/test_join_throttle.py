"""The room-code throttle over HTTP: a small budget per browser, a much larger one per address,
so a class behind one school address is never locked out by its own typos while one browser (or
a cookie-dropping script) guessing codes is stopped."""

import pytest
from django.test import Client

from classroom import throttle

JOIN = "/join"
SCHOOL = "198.51.100.7"
WINDOW_START = 1_800_000_000.0  # a multiple of 10 and of 15 minutes


@pytest.fixture(autouse=True)
def _steady_clock(monkeypatch):
    """Windows are aligned on the clock, so a test running across a boundary would see its
    counts start again: the throttle's clock stands still at the start of a window."""
    monkeypatch.setattr(throttle, "_now", lambda: WINDOW_START)


def _try(client: Client, code: str):
    return client.get(JOIN, {"code": code})


def _browser(address: str = SCHOOL) -> Client:
    """A student's browser: it opens the join page first, which hands it its token."""
    client = Client(REMOTE_ADDR=address)
    assert client.get(JOIN).status_code == 200
    assert throttle.BROWSER_COOKIE in client.cookies
    return client


@pytest.fixture
def budgets(settings):
    settings.BOTBENCH_JOIN_BROWSER_LIMIT = 10
    settings.BOTBENCH_JOIN_ADDRESS_LIMIT = 300
    settings.BOTBENCH_JOIN_WINDOW_MINUTES = 10
    return settings


def test_a_class_of_30_behind_one_address_making_typos_all_join(budgets, open_session):
    code = open_session.room_code
    typo = "Z" + code[1:] if code[0] != "Z" else "Y" + code[1:]
    browsers = [_browser() for _ in range(30)]
    for _ in range(3):  # 90 typos from one address within minutes
        for browser in browsers:
            assert _try(browser, typo).status_code == 400
    for browser in browsers:
        response = _try(browser, code)
        assert response.status_code == 200
        assert "Who are you?" in response.content.decode()


def test_one_browser_guessing_is_stopped_and_its_classmates_are_not(budgets, open_session):
    guesser = _browser()
    for _ in range(10):
        assert _try(guesser, "ZZZZZZ").status_code == 400
    response = _try(guesser, open_session.room_code)  # even the right code now
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many wrong codes from this device. Wait 10 minutes and try again." in page
    assert "Who are you?" not in page
    assert response["Retry-After"] == "600"
    # The student at the next desk, same school address, joins.
    assert _try(_browser(), open_session.room_code).status_code == 200


def test_a_script_that_drops_cookies_shares_one_browser_budget(budgets, open_session):
    for _ in range(10):
        assert _try(Client(REMOTE_ADDR=SCHOOL), "ZZZZZZ").status_code == 400
    assert _try(Client(REMOTE_ADDR=SCHOOL), "ZZZZZZ").status_code == 429
    # Browsers that keep their token are not affected.
    assert _try(_browser(), open_session.room_code).status_code == 200


def test_the_address_budget_stops_many_browsers_from_one_address(budgets, open_session):
    budgets.BOTBENCH_JOIN_ADDRESS_LIMIT = 25
    for _ in range(5):
        browser = _browser()
        for _ in range(5):
            assert _try(browser, "ZZZZZZ").status_code == 400
    response = _try(_browser(), open_session.room_code)
    assert response.status_code == 429
    assert "Too many wrong codes from this network." in response.content.decode()
    # Another school is not affected.
    assert _try(_browser("203.0.113.50"), open_session.room_code).status_code == 200


def test_the_right_code_and_an_empty_box_spend_nothing(budgets, open_session):
    browser = _browser()
    for _ in range(12):
        assert _try(browser, open_session.room_code).status_code == 200
        assert _try(browser, "").status_code == 200
    for _ in range(10):
        assert _try(browser, "ZZZZZZ").status_code == 400


def test_a_stopped_browser_may_try_again_when_the_window_ends(budgets, open_session, monkeypatch):
    now = 1_800_000_000.0  # on a window boundary
    monkeypatch.setattr(throttle, "_now", lambda: now)
    browser = _browser()
    for _ in range(10):
        _try(browser, "ZZZZZZ")
    assert _try(browser, open_session.room_code).status_code == 429
    now += 9 * 60
    assert "Wait 1 minute and try again." in _try(browser, "ZZZZZZ").content.decode()
    now += 60
    assert _try(browser, open_session.room_code).status_code == 200


def test_behind_a_proxy_each_forwarded_address_has_its_own_budget(budgets, open_session):
    budgets.BOTBENCH_PROXY_HOPS = 1
    budgets.BOTBENCH_JOIN_ADDRESS_LIMIT = 10
    proxy = "10.0.0.1"
    for _ in range(10):
        client = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="192.0.2.10")
        assert _try(client, "ZZZZZZ").status_code == 400
    spent = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="192.0.2.10")
    assert _try(spent, open_session.room_code).status_code == 429
    fresh = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="192.0.2.11")
    assert _try(fresh, open_session.room_code).status_code == 200


def test_a_joined_student_keeps_playing_after_the_browser_is_stopped(
    budgets, open_session, students
):
    """The throttle guards the code box only: a device that is in stays in."""
    browser = _browser()
    response = browser.post(JOIN, {"code": open_session.room_code, "student": students[0].pk})
    assert response.status_code == 302
    for _ in range(11):
        _try(browser, "ZZZZZZ")
    page = browser.get("/me")
    assert page.status_code == 200
    assert "Ava" in page.content.decode()


def test_a_busy_cache_keeps_the_counts(budgets, open_session):
    """The embedded file cache deletes a third of its entries at random once it holds more than
    MAX_ENTRIES; the default 300 would let a busy lesson erase a guesser's count."""
    from django.core.cache import cache

    guesser = _browser()
    for guess in range(10):
        for n in range(100):  # the rest of the lesson writes too: poll versions, counters...
            cache.set(f"other-entry-{guess}-{n}", n, timeout=60)
        assert _try(guesser, "ZZZZZZ").status_code == 400
    assert _try(guesser, open_session.room_code).status_code == 429
