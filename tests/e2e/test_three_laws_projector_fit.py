"""The 3 Laws projector fits the screen in every phase (issue 40): at 1920x1080 and 1280x720,
in Spanish (the longer texts) and in English, nothing in the page's main region reaches past the
viewport or is cut off inside a box that hides its overflow, and the table's content spreads
over the screen's width. States: set-up, wake up, questions, questions with Error calls made
(the calls panel), transfer, reveal, the last round's questions with every law in force and
several calls, and the game over. Each state is screenshotted (test-output/screenshots)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from classroom.models import ProjectorLanguage
from games import services
from tests.e2e.conftest import PROJECTOR, login_cookie
from tests.games.conftest import (
    advance,
    seat_teams,
    three_laws_session,
)
from tests.support.three_laws import play_turns

SMALL_PROJECTOR = {"width": 1280, "height": 720}

# What a projector screen must not do: the script says (a list of what it found).
OVERFLOWS = (Path(__file__).parent / "projector_overflows.js").read_text()
# How much of the screen's width the table's content spans (the union of #live's children).
SPAN = """() => {
  let left = Infinity, right = -Infinity;
  for (const el of document.querySelectorAll("#live > *:not([hidden])")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0) continue;
    left = Math.min(left, box.left); right = Math.max(right, box.right);
  }
  return (right - left) / window.innerWidth;
}"""


def call_error(game, by: int, offender: int, law: int) -> None:
    game.refresh_from_db()
    seats = game.state["seats"]
    services.move_submit(
        game_id=game.pk,
        seat=seats[by],
        action={"type": "error", "offender": seats[offender], "law": game.state["law_order"][law]},
        expected_version=None,
        client_move_id=f"call-{game.version}-{by}",
    )
    game.refresh_from_db()


def states(game, teacher):
    """Walk the table (round 2 first: a law in force) through its phases; yield a name at each
    state to look at."""
    yield "setup"
    advance(game, teacher)
    yield "wake-up"
    advance(game, teacher)
    yield "questions"
    call_error(game, 0, 1, 0)
    call_error(game, 2, 3, 0)
    yield "questions-error-calls"
    play_turns(game, "transfer")
    yield "transfer"
    play_turns(game, "reveal-ready")
    advance(game, teacher)
    yield "reveal"
    while game.state["round_index"] + 2 < len(game.state["rounds"]):
        advance(game, teacher, 3)  # the next round's set-up, wake up, questions
        play_turns(game, "reveal-ready")
        advance(game, teacher)
    advance(game, teacher, 3)  # the last round: set-up, wake up, questions
    for by, offender, law in ((0, 1, 0), (1, 2, 1), (2, 3, 2), (3, 4, 3), (4, 0, 4)):
        call_error(game, by, offender, law)
    yield "last-round-error-calls"
    play_turns(game, "reveal-ready")
    advance(game, teacher, 2)  # reveal, then the end
    yield "over"


@pytest.mark.layout
@pytest.mark.parametrize("language", [ProjectorLanguage.SPANISH, ProjectorLanguage.ENGLISH])
def test_the_projector_fits_every_phase_at_both_sizes(
    live_server, new_context, screenshot, console_errors, teacher, classroom, students, language
):
    session = three_laws_session(
        classroom, teacher, projector_language=language, skip_first_round=True
    )
    seat_teams(session, students[:5], teams=5)
    (game,) = services.session_start_tables(session=session, by=teacher)
    pages = {}
    for size_name, size in (("1920", PROJECTOR), ("1280", SMALL_PROJECTOR)):
        context = new_context(size)
        context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
        pages[size_name] = console_errors(context.new_page())
    problems = []
    for state in states(game, teacher):
        game.refresh_from_db()
        for size_name, page in pages.items():
            page.goto(f"{live_server.url}/play/tables/{game.pk}/projector/")
            expect(page.locator("#live")).to_be_visible()
            page.evaluate("document.fonts.ready")
            screenshot(page, f"3laws-projector-fit-{language}-{size_name}-{state}")
            for found in page.evaluate(OVERFLOWS):
                problems.append(f"{language} {size_name} {state}: {found}")
            span = page.evaluate(SPAN)
            if span < 0.9:
                problems.append(
                    f"{language} {size_name} {state}: content spans {span:.0%} of the width"
                )
    assert game.state["phase"] == "over"
    assert not problems, "\n".join(problems)
