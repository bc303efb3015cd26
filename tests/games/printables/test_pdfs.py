"""Each printable, rendered for real: page count and size from the PDF, every card in the right
deck, no WeasyPrint warnings, and a PNG of a page of each to look at (test-output/printables/)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engines import bot_builders, three_laws
from games.engines.three_laws import components
from games.printables import PRINTABLES, get_printable
from tests.conftest import skip_or_fail
from tests.support.pdfs import pdf_reader, rendered

LETTER_POINTS = (612, 792)  # 8.5 x 11 in at 72 points an inch
PNG_DIR = Path(__file__).resolve().parents[3] / "test-output" / "printables"
SLUGS = [printable.slug for printable in PRINTABLES]


def page_texts(slug: str) -> list[str]:
    """Each page's text with runs of whitespace folded, so a wrapped name still matches."""
    return [re.sub(r"\s+", " ", page.extract_text()) for page in pdf_reader(slug).pages]


@pytest.mark.parametrize("slug", SLUGS)
def test_printable_has_the_registered_page_count_on_letter_paper(slug):
    reader = pdf_reader(slug)
    assert len(reader.pages) == get_printable(slug).pages
    for page in reader.pages:
        size = (round(float(page.mediabox.width)), round(float(page.mediabox.height)))
        assert size == LETTER_POINTS


@pytest.mark.parametrize("slug", SLUGS)
def test_printable_renders_without_weasyprint_warnings(slug):
    """Unsupported CSS, a missing icon or a refused URL would each log a warning."""
    assert rendered(slug)[1] == ()


def test_page_counts_match_the_rulebook_downloads_where_the_cards_allow():
    pages = {printable.slug: printable.pages for printable in PRINTABLES}
    assert pages["bot-builders-instructions"] == 1
    assert pages["bot-builders-rules"] == 2
    # 32 parts at three a sheet need 11 sheets, not the rulebook's 12: the 33rd slot holds a
    # scoring card.
    assert pages["bot-builders-parts"] == 11
    assert pages["bot-builders-missions-glitches"] == 6
    assert pages["bot-builders-teachback"] == 1


def _deck_text(slug: str) -> str:
    return " ".join(page_texts(slug))


def test_every_part_card_is_in_the_parts_deck_and_no_other_card_is():
    text = _deck_text("bot-builders-parts")
    parts = [card for card in bot_builders.CARDS.values() if card.is_part]
    assert len(parts) == 32
    for card in parts:
        assert card.name in text, card.id
        assert card.text in text, card.id
    for card in bot_builders.CARDS.values():
        if not card.is_part:
            assert card.name not in text, card.id


def test_every_mission_and_glitch_is_in_their_deck_and_no_part_is():
    text = _deck_text("bot-builders-missions-glitches")
    others = [card for card in bot_builders.CARDS.values() if not card.is_part]
    assert len(others) == 16
    for card in others:
        assert card.name in text, card.id
        assert card.text in text, card.id
    for card in bot_builders.CARDS.values():
        if card.is_part:
            assert card.name not in text, card.id


def test_each_deck_sheet_holds_three_cards_in_deck_order():
    pages = page_texts("bot-builders-parts")
    parts = [card for card in bot_builders.CARDS.values() if card.is_part]
    for index, card in enumerate(parts):
        assert card.name in pages[index // 3], card.id
    assert "How to score" in pages[-1]


def test_missions_show_their_two_preferred_categories():
    pages = page_texts("bot-builders-missions-glitches")
    missions = bot_builders.cards_of_kind("mission")
    for index, card in enumerate(missions):
        first, second = (kind.capitalize() for kind in card.prefers)
        assert f"Prefers: {first} + {second}" in pages[index // 3], card.id


def test_glitches_name_the_slot_they_hit():
    pages = page_texts("bot-builders-missions-glitches")
    offset = len(bot_builders.cards_of_kind("mission"))
    for index, card in enumerate(bot_builders.cards_of_kind("glitch"), start=offset):
        assert f"Hits the {card.slot.capitalize()} slot" in pages[index // 3], card.id


def test_faction_deck_has_every_faction_at_every_rank():
    pages = page_texts("three-laws-factions")
    top = components.max_rank(components.MAX_SEATS)
    cards = [(f, r) for f in three_laws.FACTIONS for r in range(1, top + 1)]
    assert len(cards) == 15
    for index, (faction, rank) in enumerate(cards):
        assert f"{faction.capitalize()}" in pages[index // 3]
        assert f"rank {rank}" in pages[index // 3], (faction, rank)


def test_every_law_is_on_a_law_card():
    text = _deck_text("three-laws-laws")
    # Band titles are set in capitals by the CSS, and text extraction keeps the capitals.
    numbers = [int(n) for n in re.findall(r"\bLAW (\d+)\b", text)]
    assert numbers == list(range(1, len(three_laws.LAWS) + 1))
    for law in three_laws.LAWS.values():
        assert law in text, law


def test_victory_point_cards_follow_the_deck_composition():
    text = _deck_text("three-laws-victory-points")
    # Each card prints its value then "Victory point(s)".
    values = [int(v) for v in re.findall(r"(\d)\s*VICTORY POINTS?\b", text)]
    assert sorted(values) == sorted(components.vp_deck())
    assert len(values) == 60


def test_keys_sheet_has_a_key_per_seat_and_tokens_for_the_largest_table():
    first, second = page_texts("three-laws-keys-tokens")
    assert first.lower().count("security key") == components.MAX_SEATS
    assert "start player" in first.lower()
    assert second.count("ERROR") >= components.MAX_SEATS + 2


def test_rules_carry_the_variants_and_the_teach_back_sentence():
    first, second = page_texts("bot-builders-rules")
    assert "Variants" in second
    for variant in ("2 players", "Solo", "Classroom"):
        assert variant in second
    assert (
        "My bot senses with ___, thinks with ___, acts with ___, powered by ___, because ___"
        in (second)
    )
    assert f"Score {bot_builders.SOLO_WIN_SCORE} or more" in second
    assert "page 1 of 2" in first and "page 2 of 2" in second


def test_instruction_sheet_covers_setup_turn_last_lap_and_scoring():
    (text,) = page_texts("bot-builders-instructions")
    for heading in ("Set up", "Your turn", "The last lap", "Scoring"):
        assert heading in text
    assert f"{bot_builders.MAX_SCORE} a perfect bot" in text
    assert "= 16" in text  # the worked example, scored by the engine


def test_teachback_worksheet_has_the_sentence_frame():
    (text,) = page_texts("bot-builders-teachback")
    for words in ("My bot senses with", "thinks with", "acts with", "powered by", "because"):
        assert words in text


@pytest.mark.parametrize("slug", SLUGS)
def test_first_page_renders_to_png(slug):
    """A PNG of each printable's first page, to look at (not committed)."""
    if shutil.which("pdftoppm") is None:
        skip_or_fail("pdftoppm is not installed (apt-get install poppler-utils)")
    PNG_DIR.mkdir(parents=True, exist_ok=True)
    prefix = PNG_DIR / slug
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", "-", str(prefix)],
        input=rendered(slug)[0],
        check=True,
    )
    png = prefix.with_suffix(".png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # 8.5 x 11 in at 60 dpi: the PNG header's width and height.
    width = int.from_bytes(png.read_bytes()[16:20], "big")
    height = int.from_bytes(png.read_bytes()[20:24], "big")
    assert (width, height) == (510, 660)
