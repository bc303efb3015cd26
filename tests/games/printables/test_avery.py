"""The Avery 5388 decks, measured from the rendered PDFs.

Each card's thin edge line is found in a grayscale rendering (pdftoppm at a known resolution,
read as a PGM by a few lines of Python) and its box compared with the template's published
dimensions (games.printables.layout.AVERY_5388) within 1/16 in.
"""

import shutil
import subprocess

import pytest

from games.printables import get_printable
from games.printables.layout import AVERY_5388
from tests.conftest import skip_or_fail
from tests.support.pdfs import pdf_reader, rendered

DPI = 96
TOLERANCE = 1 / 16  # inches
# The scan line runs 0.05 in inside each card's edge: inside the card, outside its artwork (the
# artwork keeps a 0.1 in safe zone), so the only ink it meets is the edge lines themselves.
INSET = 0.05
INK = 235  # darker than this (0 black - 255 white) is ink, not paper
DECKS = ["bot-builders-parts", "bot-builders-missions-glitches", "three-laws-factions",
         "three-laws-laws"]  # fmt: skip


class Gray:
    """One page as 8-bit grayscale pixels, from pdftoppm's binary PGM (P5) output."""

    def __init__(self, data: bytes) -> None:
        fields: list[bytes] = []
        position = 0
        while len(fields) < 4:  # magic, width, height, maxval
            while data[position : position + 1].isspace():
                position += 1
            end = position
            while not data[end : end + 1].isspace():
                end += 1
            fields.append(data[position:end])
            position = end
        assert fields[0] == b"P5" and fields[3] == b"255", fields
        self.width, self.height = int(fields[1]), int(fields[2])
        self.pixels = data[position + 1 :]
        assert len(self.pixels) == self.width * self.height

    def at(self, x: int, y: int) -> int:
        return self.pixels[y * self.width + x]


def render_gray(pdf: bytes, page: int) -> Gray:
    result = subprocess.run(
        ["pdftoppm", "-gray", "-r", str(DPI), "-f", str(page), "-l", str(page), "-"],
        input=pdf,
        capture_output=True,
        check=True,
    )
    return Gray(result.stdout)


def runs(values: list[int]) -> list[float]:
    """Centres (in pixels) of the runs of ink along a scan line."""
    centres, start = [], None
    for index, value in enumerate([*values, 255]):
        if value < INK and start is None:
            start = index
        elif value >= INK and start is not None:
            centres.append((start + index - 1) / 2 + 0.5)
            start = None
    return centres


def inches(pixels: float) -> float:
    return pixels / DPI


def measure_cards(gray: Gray, card_count: int) -> list[tuple[float, float, float, float]]:
    """(left, top, right, bottom) in inches of each card, from the ink of its edge lines."""
    column = round((AVERY_5388.margin_left + INSET) * DPI)
    horizontal_lines = [inches(y) for y in runs([gray.at(column, y) for y in range(gray.height)])]
    boxes = []
    for index in range(card_count):
        assert len(horizontal_lines) > index + 1, f"found edges at {horizontal_lines}"
        top, bottom = horizontal_lines[index], horizontal_lines[index + 1]
        row = round((top + INSET) * DPI)
        vertical_lines = [inches(x) for x in runs([gray.at(x, row) for x in range(gray.width)])]
        assert len(vertical_lines) == 2, f"card {index}: vertical edges at {vertical_lines}"
        boxes.append((vertical_lines[0], top, vertical_lines[1], bottom))
    assert len(horizontal_lines) == card_count + 1, f"found edges at {horizontal_lines}"
    return boxes


@pytest.fixture(scope="module", autouse=True)
def _pdftoppm():
    if shutil.which("pdftoppm") is None:
        skip_or_fail("pdftoppm is not installed (apt-get install poppler-utils)")


@pytest.mark.parametrize("slug", DECKS)
def test_card_boxes_match_the_avery_5388_template_within_a_sixteenth(slug):
    pdf = rendered(slug)[0]
    pages = len(pdf_reader(slug).pages)
    assert pages == get_printable(slug).pages
    for page in range(1, pages + 1):
        gray = render_gray(pdf, page)
        assert (gray.width, gray.height) == (8.5 * DPI, 11 * DPI)
        boxes = measure_cards(gray, AVERY_5388.per_sheet)
        for index, measured in enumerate(boxes):
            expected = AVERY_5388.card_box(index)
            for got, want in zip(measured, expected, strict=True):
                where = f"{slug} sheet {page} card {index + 1}"
                assert abs(got - want) <= TOLERANCE, f"{where}: {measured} vs {expected}"


@pytest.mark.parametrize("slug", DECKS)
def test_nothing_prints_in_the_template_margins(slug):
    """Artwork that spilled off a card would land on the sheet's margin, not on a card."""
    pdf = rendered(slug)[0]
    slack = 2  # pixels: the edge line's anti-aliasing
    left = round(AVERY_5388.margin_left * DPI) - slack
    right = round((AVERY_5388.margin_left + AVERY_5388.card_width) * DPI) + slack
    top = round(AVERY_5388.margin_top * DPI) - slack
    bottom = round((AVERY_5388.margin_top + 3 * AVERY_5388.card_height) * DPI) + slack
    for page in range(1, len(pdf_reader(slug).pages) + 1):
        gray = render_gray(pdf, page)
        inked = [
            (x, y)
            for y in range(0, gray.height, 2)
            for x in range(0, gray.width, 2)
            if not (left <= x <= right and top <= y <= bottom) and gray.at(x, y) < INK
        ]
        assert inked == [], f"{slug} sheet {page}: ink in the margins at {inked[:5]}"


def test_measuring_finds_a_misplaced_card():
    """The measurement itself: a sheet drawn 1/8 in too low fails the comparison."""
    html = (
        "<html><head><link rel='stylesheet' href='css/print/base.css'>"
        "<link rel='stylesheet' href='css/print/cards.css'></head><body>"
        "<section class='avery-sheet'><div style='height: 0.125in'></div>"
        "<article class='card'></article><article class='card'></article></section></body></html>"
    )
    from games.printables.render import render_pdf

    boxes = measure_cards(render_gray(render_pdf(html), 1), 2)
    top = boxes[0][1]
    assert abs(top - AVERY_5388.card_box(0)[1] - 0.125) <= TOLERANCE
    assert abs(top - AVERY_5388.card_box(0)[1]) > TOLERANCE


def _walk(box):
    yield box
    for child in getattr(box, "children", []):
        yield from _walk(child)


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None else set()


@pytest.mark.parametrize("slug", DECKS)
def test_card_text_ends_above_the_footer_and_inside_the_frame(slug):
    """The card box clips what overflows it, so clipped words would vanish silently: check the
    laid-out text lines of every card against its footer and its frame."""
    import weasyprint
    from weasyprint.formatting_structure.boxes import LineBox, TextBox

    from games.printables.fetcher import BASE_URL, StaticOnlyFetcher
    from games.printables.render import render_html

    html = render_html(get_printable(slug))
    document = weasyprint.HTML(
        string=html, base_url=BASE_URL, url_fetcher=StaticOnlyFetcher()
    ).render()
    faces = 0
    for page in document.pages:
        for face in (b for b in _walk(page._page_box) if "face" in _classes(b)):
            faces += 1
            foot = next(b for b in _walk(face) if "foot" in _classes(b))
            skip = {id(b) for part in _walk(face) if _classes(part) & {"foot", "band"}
                    for b in _walk(part)}  # fmt: skip
            lines = [b for b in _walk(face) if isinstance(b, LineBox) and id(b) not in skip]
            assert lines, "a card with no text"
            right = face.position_x + face.margin_width()
            for line in lines:
                assert line.position_y + line.height <= foot.position_y, (slug, line)
                for text in (b for b in _walk(line) if isinstance(b, TextBox)):
                    assert text.position_x + text.width <= right, (slug, text.text)
    assert faces == get_printable(slug).pages * AVERY_5388.per_sheet
