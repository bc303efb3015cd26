"""Printables in Spanish: each one rendered in Spanish keeps its page count and paper, says its
chrome in Spanish (text pulled out with pdftotext), and says the engines' words through the
catalogue; the cache keeps the English and the Spanish copies apart; the downloads follow the
viewer's language, and `?lang=` names one outright. English stays as it was."""

import re
import shutil
import subprocess

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from pypdf import PdfReader

from games.engines import bot_builders, three_laws
from games.printables import PRINTABLES, get_printable, printable_pdf
from games.printables import bot_builders as bb
from games.printables import three_laws as tl
from games.printables.render import render_html
from tests.conftest import skip_or_fail
from tests.support.pdfs import rendered

SLUGS = [printable.slug for printable in PRINTABLES]
INDEX = reverse("games:printables")


def pdf_url(slug: str) -> str:
    return reverse("games:printable", args=[slug])


@pytest.fixture(autouse=True)
def _english_after(request):
    """A Spanish request leaves Spanish active in this thread: switch back after each test, so
    no later test (or the in-process worker) inherits it."""
    yield
    translation.deactivate()


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path / "printables"


def spanish(slug: str) -> tuple[bytes, tuple[str, ...]]:
    """The printable's Spanish PDF and WeasyPrint's warnings (rendered once a run)."""
    return rendered(slug, "es")


def pdftotext(data: bytes) -> str:
    """The PDF's text as poppler's pdftotext reads it, whitespace folded."""
    if shutil.which("pdftotext") is None:
        skip_or_fail("pdftotext (poppler-utils) is not installed")
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=True
    )
    return re.sub(r"\s+", " ", out.stdout.decode("utf-8"))


# Chrome each Spanish printable must say (from the catalogue), with accents and ñ ¿ ¡.
SPANISH_CHROME = {
    "bot-builders-instructions": [
        "Hoja de instrucciones",
        "Preparación",
        "Tu turno",
        "La última vuelta",
        "Puntuación",
        "¿Empate?",
        "¡BOT!",
        "Bot completo",
        "pila de descarte",
        "mazo para robar",
    ],
    "bot-builders-rules": [
        "Reglas de Bot-Builders",
        "Las cartas",
        "Instalar y Fallas",
        "Fin de la ronda",
        "Variantes",
        "Mi robot percibe con ___, piensa con ___, actúa con ___, funciona con ___, porque ___",
    ],
    "bot-builders-parts": ["Percibir", "Pensar", "Actuar", "Energía", "pieza", "Cómo puntuar"],
    "bot-builders-missions-glitches": [
        "para qué existe el bot",
        "contratiempo",
        "Prefiere:",
        "Reglas de las Fallas",
        "Juégala en el banco de un rival",
    ],
    "bot-builders-teachback": [
        "Explica tu bot: nuestro bot",
        "Equipo:",
        "Nuestra Misión:",
        "Mi robot percibe con",
        "piensa con",
        "actúa con",
        "funciona con",
        "porque",
        "¿Por qué estas piezas sirven para tu Misión?",
        "Revísenlo juntos",
    ],
    "three-laws-factions": ["Carta de facción", "Androides", "Cíborgs", "Rango"],
    "three-laws-laws": ["Ley 1", "Desde la ronda 2", "3 Leyes de la Robótica"],
    "three-laws-victory-points": ["Punto de victoria", "Puntos de victoria", "boca abajo"],
    "three-laws-keys-tokens": ["Jugador inicial", "Llave de seguridad", "Fichas de control"],
}
# English chrome that must be gone from the Spanish copy.
ENGLISH_CHROME = {
    "bot-builders-instructions": ["Instruction sheet", "Your turn", "The last lap"],
    "bot-builders-rules": ["Bot-Builders rules", "My bot senses with"],
    "bot-builders-parts": ["How to score", "Installs in the"],
    "bot-builders-missions-glitches": ["why the bot exists", "Prefers:", "Hits the"],
    "bot-builders-teachback": ["Teach-back: our bot", "Check it together", "thinks with"],
    "three-laws-factions": ["Faction card", "Hold it up"],
    "three-laws-laws": ["From round 2"],
    "three-laws-victory-points": ["Victory point", "keep it face down"],
    "three-laws-keys-tokens": ["Start player", "Security key", "Enforcement tokens"],
}


def test_every_printable_has_spanish_chrome_listed():
    assert set(SPANISH_CHROME) == set(SLUGS) == set(ENGLISH_CHROME)


@pytest.mark.parametrize("slug", SLUGS)
def test_spanish_printable_says_its_chrome_in_spanish(slug):
    # casefold: card bands print their words in capitals (CSS text-transform).
    text = pdftotext(spanish(slug)[0]).casefold()
    for words in SPANISH_CHROME[slug]:
        assert words.casefold() in text, words
    for words in ENGLISH_CHROME[slug]:
        assert words.casefold() not in text, words


@pytest.mark.parametrize("slug", SLUGS)
def test_spanish_printable_keeps_its_page_count_and_renders_without_warnings(slug):
    """Spanish runs longer than English: nothing may spill onto an extra page or sheet."""
    pdf, warnings = spanish(slug)
    import io

    assert len(PdfReader(io.BytesIO(pdf)).pages) == get_printable(slug).pages
    assert warnings == ()


def test_spanish_html_declares_its_language():
    assert '<html lang="es">' in render_html(get_printable("bot-builders-rules"), "es")
    assert '<html lang="en">' in render_html(get_printable("bot-builders-rules"), "en")


def test_engine_words_go_through_the_catalogue():
    """Card names and texts, law texts and faction members are the engines' N_-marked words:
    each printed one is `gettext(word)` in the language of the render (Spanish once the engine
    words are translated; the same English word until then)."""
    with translation.override("es"):
        faces = {face["id"]: face for face in bb.parts_cards() + bb.missions_glitches_cards()}
        for card in bot_builders.CARDS.values():
            assert faces[card.id]["name"] == gettext(card.name)
            assert faces[card.id]["text"] == gettext(card.text)
            assert faces[card.id]["label"] == gettext(bb.LABELS[card.kind])
        laws = {law["id"]: law["text"] for law in tl.law_cards()}
        for law_id, text in three_laws.LAWS.items():
            assert laws[law_id] == gettext(text)
        assert {card["name"] for card in tl.faction_cards()} == {
            "Androides",
            "Cíborgs",
            "Drones",
        }


def test_spanish_deck_prints_the_names_the_catalogue_gives():
    text = pdftotext(spanish("bot-builders-missions-glitches")[0])
    with translation.override("es"):
        for card in bot_builders.cards_of_kind("mission"):
            assert gettext(card.name) in text, card.id
        assert "Afecta el espacio de Percibir" in text or "Afecta el espacio de" in text


def test_english_printables_are_unchanged():
    html = render_html(get_printable("bot-builders-instructions"), "en")
    assert "Instruction sheet · 2–6 players" in html
    assert "Hoja de instrucciones" not in html
    assert "My bot senses with" in render_html(get_printable("bot-builders-teachback"), "en")


# -- the cache ---------------------------------------------------------------------------------


def test_cache_keeps_english_and_spanish_copies_apart_and_both_cached(media):
    printable = get_printable("bot-builders-teachback")
    english = printable_pdf(printable, "en")
    spanish_copy = printable_pdf(printable, "es")
    assert english.rendered and spanish_copy.rendered
    assert english.key != spanish_copy.key
    assert english.path != spanish_copy.path
    assert english.path.name == f"bot-builders-teachback-{english.key}.pdf"
    assert spanish_copy.path.name == f"bot-builders-teachback-es-{spanish_copy.key}.pdf"
    # Rendering one language never removes the other as "stale".
    assert english.path.exists() and spanish_copy.path.exists()
    assert "Explica tu bot" in pdftotext(spanish_copy.path.read_bytes())
    assert "Teach-back: our bot" in pdftotext(english.path.read_bytes())
    # Both served from the cache afterwards, whichever language comes first.
    again_es = printable_pdf(printable, "es")
    again_en = printable_pdf(printable, "en")
    assert not again_es.rendered and not again_en.rendered
    assert again_es.path == spanish_copy.path and again_en.path == english.path


def test_cache_follows_the_active_language_when_none_is_given(media):
    printable = get_printable("three-laws-laws")
    with translation.override("es"):
        pdf = printable_pdf(printable)
    assert pdf.language == "es" and "-es-" in pdf.path.name
    with translation.override("en"):
        assert printable_pdf(printable).language == "en"


def test_a_stale_spanish_copy_is_replaced_but_the_english_one_kept(media, monkeypatch):
    import dataclasses

    printable = get_printable("bot-builders-instructions")
    english = printable_pdf(printable, "en")
    old_es = printable_pdf(printable, "es")
    changed = dataclasses.replace(
        printable, context=lambda: {**bb.instructions_context(), "deck_size": 49}
    )
    new_es = printable_pdf(changed, "es")
    assert new_es.rendered and not old_es.path.exists()
    assert english.path.exists()


# -- the pages ---------------------------------------------------------------------------------


def spanish_device(client):
    client.cookies["django_language"] = "es"
    return client


def test_spanish_viewer_gets_the_spanish_pdf_and_the_response_varies(outsider, media):
    response = spanish_device(outsider).get(pdf_url("bot-builders-teachback"), {"download": "1"})
    assert response.status_code == 200
    assert response["Content-Language"] == "es"
    assert "Cookie" in response["Vary"] and "Accept-Language" in response["Vary"]
    assert response["Content-Disposition"] == (
        'attachment; filename="botbench-bot-builders-teachback-es.pdf"'
    )
    assert "Explica tu bot" in pdftotext(b"".join(response.streaming_content))


def test_lang_parameter_names_the_language_whatever_the_viewer_speaks(outsider, media):
    english = spanish_device(outsider).get(pdf_url("bot-builders-teachback"), {"lang": "en"})
    assert english["Content-Language"] == "en"
    assert "Teach-back: our bot" in pdftotext(b"".join(english.streaming_content))
    outsider.cookies.pop("django_language")
    spanish_copy = outsider.get(pdf_url("bot-builders-teachback"), {"lang": "es"})
    assert spanish_copy["Content-Language"] == "es"
    assert "Cookie" not in spanish_copy.get("Vary", "")
    assert english["ETag"] != spanish_copy["ETag"]
    # Both copies are cached side by side.
    assert len(list(media.glob("bot-builders-teachback-*.pdf"))) == 2


def test_an_unknown_lang_falls_back_to_the_viewers_language(outsider, media):
    response = outsider.get(pdf_url("three-laws-laws"), {"lang": "xx"})
    assert response.status_code == 200 and response["Content-Language"] == "en"


def test_spanish_index_is_in_spanish_and_links_both_languages(outsider):
    html = spanish_device(outsider).get(INDEX).content.decode()
    for words in ("Imprimibles", "Antes de imprimir", "Hoja de instrucciones", "11 hojas"):
        assert words in html, words
    assert "tamaño real (100 %)" in html
    assert "Before you print" not in html
    for printable in PRINTABLES:
        with translation.override("es"):
            assert printable.title in html
        assert f'href="{pdf_url(printable.slug)}?download=1"' in html
        assert f'href="{pdf_url(printable.slug)}?lang=en&amp;download=1"' in html
    assert "Download in English" in html


def test_english_index_offers_the_spanish_copies(outsider):
    html = outsider.get(INDEX).content.decode()
    assert "Before you print" in html and "11 sheets" in html
    assert f'href="{pdf_url("bot-builders-rules")}?lang=es&amp;download=1"' in html
    assert 'lang="es"' in html and "Descargar en español" in html
