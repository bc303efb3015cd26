"""The projector, read from the back of the room: measured in Chromium at 1920x1080 (every game
text at least 28 px, headings larger, the layout filling the screen for 1 to 6 tables), at
1280x720 and 1024x768 (everything fits, nothing scrolls), and with no controls on it (the
teacher runs the tables from the dashboard). The grid fits the longest benches there are, for
every class size and projector language: when the cards' names do not fit, it shows their
letters (js/projector_fit.js). Screenshots of each size go to test-output/."""

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from classroom.models import ProjectorLanguage
from games import live
from games.engines import bot_builders
from tests.e2e.conftest import PROJECTOR, login_cookie
from tests.games.conftest import (
    place_bench,
    three_laws_at_questions,
)
from tests.support.projector import LAYOUT, MIN_PX, SIZES, bot_builders_tables, measure

pytestmark = [
    pytest.mark.browser,
    pytest.mark.layout,
    pytest.mark.django_db(transaction=True),
]


def show(new_context, viewport, teacher, url):
    context = new_context(viewport)
    context.add_cookies([{**login_cookie(teacher), "url": url}])
    page = context.new_page()
    return page


def look_at_every_size(new_context, screenshot, teacher, live_server, path, name, ready):
    """The page at each projector size: the 1080p figures, and the layout at every size."""
    figures = {}
    for size, viewport in SIZES.items():
        page = show(new_context, viewport, teacher, live_server.url)
        page.goto(f"{live_server.url}{path}")
        ready(page)
        layout = page.evaluate(LAYOUT)
        screenshot(page, f"projector-{name}-{size}")
        assert layout["controls"] == 0, f"{name}: the class sees controls"
        assert layout["scrollW"] <= layout["w"], f"{name} at {size}: too wide {layout}"
        assert layout["scrollH"] <= layout["h"], f"{name} at {size}: too tall {layout}"
        assert layout["broken"] == [], f"{name} at {size}: card names broken mid-word"
        if size == "1080p":
            figures = measure(page)
            assert figures["too_small"] == [], f"{name}: text under {MIN_PX}px {figures}"
            assert figures["heading_min"] > figures["median"], figures
            # The layout uses the screen: its content reaches the lower part of it.
            assert layout["cellsBottom"] >= 0.6 * layout["h"], f"{name}: screen unused {layout}"
        page.context.close()
    return figures


@pytest.mark.parametrize("tables, teams", [(1, 5), (3, 5), (6, 3)])
def test_bot_builders_grid_reads_from_the_back(
    live_server, new_context, screenshot, teacher, open_session, tables, teams
):
    bot_builders_tables(open_session, teacher, tables, teams, turns=12)

    def ready(page):
        expect(page.locator(".grid-cell")).to_have_count(tables)

    figures = look_at_every_size(
        new_context,
        screenshot,
        teacher,
        live_server,
        f"/play/sessions/{open_session.pk}/projector/",
        f"bb-grid-{tables}",
        ready,
    )
    print(f"bb grid of {tables}: median {figures['median']}px, smallest {figures['smallest']}")


def test_bot_builders_one_table_reads_from_the_back(
    live_server, new_context, screenshot, teacher, open_session
):
    (game,) = bot_builders_tables(open_session, teacher, 1, 5, turns=14)

    def ready(page):
        expect(page.get_by_role("heading", name="Table 1")).to_be_visible()

    figures = look_at_every_size(
        new_context,
        screenshot,
        teacher,
        live_server,
        f"/play/tables/{game.pk}/projector/",
        "bb-table",
        ready,
    )
    print(f"bb one table: median {figures['median']}px, smallest {figures['smallest']}")


def test_three_laws_projector_reads_from_the_back_and_shows_no_controls(
    live_server, new_context, screenshot, teacher, classroom, students
):
    game = three_laws_at_questions(classroom, teacher, students)
    session = game.session

    def ready(page):
        expect(page.locator(".tl-head-phase")).to_have_text("Questions")

    one = look_at_every_size(
        new_context,
        screenshot,
        teacher,
        live_server,
        f"/play/tables/{game.pk}/projector/",
        "3laws-table",
        ready,
    )
    grid = look_at_every_size(
        new_context,
        screenshot,
        teacher,
        live_server,
        f"/play/sessions/{session.pk}/projector/",
        "3laws-grid",
        lambda page: expect(page.locator(".tl-cell")).to_have_count(1),
    )
    print(f"3 Laws one table: median {one['median']}px; grid: median {grid['median']}px")


def longest_cards(language: str) -> dict[str, list[str]]:
    """Each slot's cards, the longest name first in the projector's `language` (both names
    together for a bilingual projector)."""
    languages = ["en", "es"] if language == ProjectorLanguage.BOTH else [language]

    def length(card_id: str) -> int:
        total = 0
        for code in languages:
            with translation.override(code):
                total += len(gettext(bot_builders.CARDS[card_id].name))
        return total

    cards: dict[str, list[str]] = {}
    for card_id, card in bot_builders.CARDS.items():
        if card.kind != "glitch":
            cards.setdefault(card.slot, []).append(card_id)
    return {slot: sorted(ids, key=length, reverse=True) for slot, ids in cards.items()}


def fill_benches(games, language: str, *, teams: int | None = None) -> None:
    """The first `teams` benches of each table (all by default) given the longest names there
    are, every other bench a Full Bot (its badge beside its five cards) and the rest four parts
    and no Mission; published as a move would be, so the screens redraw."""
    longest = longest_cards(language)
    for game in games:
        game.refresh_from_db()
        for i, seat in enumerate(game.seats[:teams]):
            bench = {slot: longest[slot][i] for slot in bot_builders.SLOTS}
            if i % 2:
                bench["mission"] = None
            place_bench(game, seat, bench)
        game.version += 1
        game.save(update_fields=["version"])
        live.bump_version(game.pk, game.version)


@pytest.mark.parametrize("language", ["en", "es", ProjectorLanguage.BOTH])
@pytest.mark.parametrize("tables, teams", [(6, 6), (4, 5), (2, 6)])
def test_the_fullest_grids_fit_the_projector_in_every_language(
    live_server, new_context, screenshot, teacher, open_session, language, tables, teams
):
    """The longest card names on every bench, two-digit team numbers: every deal of every class
    size fits the screen (a random deal of six tables once overflowed by 12 px)."""
    open_session.projector_language = language
    open_session.save(update_fields=["projector_language"])
    games = bot_builders_tables(open_session, teacher, tables, teams, 0, first_team_number=11)
    fill_benches(games, language)
    look_at_every_size(
        new_context,
        screenshot,
        teacher,
        live_server,
        f"/play/sessions/{open_session.pk}/projector/",
        f"bb-grid-fullest-{language}-{tables}x{teams}",
        lambda page: expect(page.locator(".grid-cell")).to_have_count(tables),
    )


def test_the_grid_shows_card_names_until_a_redraw_would_not_fit_them(
    live_server, new_context, screenshot, teacher, open_session
):
    """Names while they fit; after a move that fills the benches, the cards' letters, the
    names kept for screen readers; the grid still on one screen."""
    open_session.projector_language = ProjectorLanguage.SPANISH
    open_session.save(update_fields=["projector_language"])
    games = bot_builders_tables(open_session, teacher, 2, 6, 0, first_team_number=11)
    fill_benches(games, ProjectorLanguage.SPANISH, teams=1)
    page = show(new_context, PROJECTOR, teacher, live_server.url)
    page.goto(f"{live_server.url}/play/sessions/{open_session.pk}/projector/")
    name = page.locator(".grid-benches .bb-chip-name").first
    expect(name).to_be_visible()
    assert page.evaluate("document.documentElement.classList.contains('grid-letters')") is False

    fill_benches(games, ProjectorLanguage.SPANISH)
    expect(page.locator("html")).to_have_class(re.compile(r"\bgrid-letters\b"))
    expect(page.locator(".grid-benches .bb-chip-name")).to_have_count(2 * 6 * 5 - 6)
    assert name.bounding_box()["width"] <= 1
    expect(name).to_have_text(re.compile(r"\w"))
    screenshot(page, "projector-bb-grid-letters-after-a-redraw")
    layout = page.evaluate(LAYOUT)
    assert layout["scrollH"] <= layout["h"], layout
