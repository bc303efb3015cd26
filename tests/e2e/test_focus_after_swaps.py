"""Keyboard focus survives the swaps: after a move, a 3 Laws question and a teach-back submit,
made with the keyboard alone, focus is on the new version of the pressed button or on the next
action of the swapped region, never dropped onto <body> (static/js/focus.js)."""

import re

import pytest
from playwright.sync_api import expect

from classroom import services as classroom_services
from games import services
from games.models import TableGame
from tests.e2e.conftest import IN_FLIGHT, LIVE_UPDATE, PHONE, binding_cookie, device_cookie, settled
from tests.games.conftest import (  # noqa: F401 - fast_passwords is a fixture
    advance,
    dealing,
    fast_passwords,
    fixed_three_laws,
    make_table,
    seat_teams,
    three_laws_at_questions,
    three_laws_session,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  return {tag: el.tagName, text: (el.textContent || "").trim().slice(0, 60),
          inRegion: !!el.closest("#live, #tb-sentence, main")};
}"""


REDRAWN = """([selector, before]) => {
  const region = document.querySelector(selector);
  return region && region.innerHTML !== before
    && !document.querySelector('.htmx-request, .htmx-settling, [data-disabled-by-htmx]');
}"""


def press(page, button, region: str = "#live") -> dict:
    """Focus `button`, press Enter, wait until the region shows the answer (morphed in place or
    replaced) and htmx has settled; what has focus then."""
    before = page.locator(region).inner_html()
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(REDRAWN, arg=[region, before])
    return page.evaluate(FOCUSED)


def team_one_playing(live_server, new_context, open_session, students, teacher):
    """Team 1's phone at a started Bot-Builders table of two teams, settled: with `fixed_deal`,
    Team 1 moves first."""
    table, _ = seat_teams(open_session, students, teams=2)
    services.session_start_tables(session=open_session, by=teacher)
    context = new_context(PHONE)
    context.add_cookies([{**device_cookie(open_session, students[0]), "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/play/")
    game = TableGame.objects.get(table=table)
    settled(page, game.version)  # the stream's first redraw must not land on the press
    return page, game


@pytest.mark.usefixtures("fixed_deal")
def test_focus_after_a_bot_builders_move(live_server, new_context, open_session, students, teacher):
    page, _ = team_one_playing(live_server, new_context, open_session, students, teacher)
    button = page.locator("form.move-form button").first
    expect(button).to_be_visible()
    focused = press(page, button)
    assert focused is not None, "focus fell to <body> after the move"
    assert focused["inRegion"], focused


def team_one_asking(live_server, new_context, classroom, students, teacher):
    """Team 1's phone at a 3 Laws table's questions, settled: Team 1 asks first."""
    game = three_laws_at_questions(classroom, teacher, students)
    context = new_context(PHONE)
    context.add_cookies([{**device_cookie(game.session, students[0]), "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/play/")
    game.refresh_from_db()
    settled(page, game.version, game.pk)
    return page, game


def redraw_whole_region(page) -> None:
    """Make the page believe its drawing is stale, so that its next poll brings the whole live
    region again, as any change at the table would; wait until that drawing is in."""
    drawn = page.locator("#live").get_attribute("data-hx-get")
    page.evaluate(
        """(drawn) => {
          const live = document.getElementById("live");
          live.setAttribute("data-hx-get", drawn.replace(/&v=[^&]*/, "&v=stale"));
          htmx.process(live);
          htmx.trigger(live.closest(".live-stream"), "live:poll");
        }""",
        drawn,
    )
    shown = drawn[drawn.index("&v=") :]
    expect(page.locator("#live")).to_have_attribute("data-hx-get", re.compile(re.escape(shown)))
    page.wait_for_function(
        "(inFlight) => !document.querySelector(inFlight)", arg=IN_FLIGHT, timeout=LIVE_UPDATE
    )


def test_focus_after_a_three_laws_question(live_server, new_context, classroom, students, teacher):
    page, _ = team_one_asking(live_server, new_context, classroom, students, teacher)
    page.get_by_label("Your question").fill("Is my card a Drone?")
    focused = press(page, page.get_by_role("button", name="Ask Team 2", exact=True))
    assert focused is not None, "focus fell to <body> after the question"
    assert focused["inRegion"], focused


def test_focus_left_on_a_heading_survives_the_next_redraw(
    live_server, new_context, classroom, students, teacher
):
    """After its question Team 1 has nothing to press, so focus goes to the region's heading,
    made focusable for it. The next redraw (the stream's, after the question) is drawn without
    that tabindex; were it removed, the browser would drop focus onto <body>."""
    page, _ = team_one_asking(live_server, new_context, classroom, students, teacher)
    page.get_by_label("Your question").fill("Is my card a Drone?")
    focused = press(page, page.get_by_role("button", name="Ask Team 2", exact=True))
    assert focused is not None and focused["tag"] == "H2", focused
    redraw_whole_region(page)
    assert page.evaluate(FOCUSED) == focused


def test_focus_after_a_teach_back_submit(live_server, new_context, open_session, students):
    finished = make_table(open_session, students, teams=2, seed=7)
    binding = classroom_services.device_join(session=open_session, student=finished.members[0])
    context = new_context(PHONE)
    context.add_cookies([{**binding_cookie(binding), "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/play/sessions/{open_session.pk}/teachback/")
    for blank in page.locator("#tb-sentence input[type=text]").all():
        if not blank.input_value():
            blank.fill("a part")
    page.get_by_label("because", exact=True).fill("it helps people after a storm")
    focused = press(page, page.get_by_role("button", name="Submit"), region="#tb-sentence")
    expect(page.get_by_text("Sent! You can still change it")).to_be_visible()
    assert focused is not None, "focus fell to <body> after the submit"
    assert focused["inRegion"], focused
    assert focused["tag"] in {"BUTTON", "INPUT", "TEXTAREA", "A"}, focused


def test_a_half_typed_question_survives_a_redraw(
    live_server, new_context, classroom, students, teacher
):
    """Team 1 is typing its question when its region is redrawn: what the team typed is still
    there, and still has focus."""
    page, game = team_one_asking(live_server, new_context, classroom, students, teacher)
    question = page.get_by_label("Your question")
    question.fill("Is my card a Dro")
    redraw_whole_region(page)
    settled(page, game.version, game.pk)
    expect(question).to_have_value("Is my card a Dro")
    expect(question).to_be_focused()


@pytest.mark.usefixtures("fixed_deal")
def test_a_tap_answered_after_its_button_was_redrawn_away_replaces_the_region(
    live_server, new_context, open_session, students, teacher
):
    """A team taps a move just as the stream's redraw morphs that button away: the move's
    answer arrives for a form that is no longer on the page. It must take the region's place,
    not land inside it (two #live regions, one in the other: static/js/live.js)."""
    page, _ = team_one_playing(live_server, new_context, open_session, students, teacher)
    held = []

    def hold(route):  # the move's request waits here until the test lets it go
        held.append(route)

    page.route("**/move/", hold)
    page.locator("form.move-form button").first.click()
    while not held:  # the route sees the request once the page has sent it
        page.wait_for_timeout(20)
    # The redraw that came first: the form that asked is no longer in the region. Count the
    # regions as the move's answer is swapped in (the stream's next redraw could hide a nesting).
    page.evaluate(
        """() => {
          document.querySelector('[data-disabled-by-htmx]').closest('form').remove();
          document.addEventListener('htmx:afterSwap', (event) => {
            if (event.detail.requestConfig.verb === 'post') {
              window.regionsAfterMove = document.querySelectorAll('#live').length;
            }
          });
        }"""
    )
    held[0].continue_()
    page.wait_for_function("() => window.regionsAfterMove !== undefined", timeout=LIVE_UPDATE)
    assert page.evaluate("window.regionsAfterMove") == 1
    expect(page.locator("#live")).to_contain_text("Team 1 drew from the draw pile")
