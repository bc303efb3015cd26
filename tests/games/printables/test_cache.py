"""The PDF cache: rendered once, then served from disk; a change makes a new file; concurrent
first downloads render once and never see half a file."""

import dataclasses
import io
import threading

import pytest
from django.contrib.staticfiles import finders
from pypdf import PdfReader

from games.printables import bot_builders as bb
from games.printables import get_printable, printable_pdf
from games.printables import render as render_module


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path / "printables"


def test_first_download_renders_and_the_next_serves_the_same_file(media):
    printable = get_printable("bot-builders-instructions")
    cold = printable_pdf(printable)
    assert cold.rendered is True
    assert cold.path.parent == media
    assert cold.path.name == f"bot-builders-instructions-{cold.key}.pdf"
    inode = cold.path.stat().st_ino

    warm = printable_pdf(printable)
    assert warm.rendered is False
    assert warm.path == cold.path
    assert warm.path.stat().st_ino == inode  # not rewritten


def test_cached_file_is_a_whole_readable_pdf_with_no_temporary_left(media):
    printable = get_printable("bot-builders-rules")
    pdf = printable_pdf(printable)
    assert len(PdfReader(io.BytesIO(pdf.path.read_bytes())).pages) == printable.pages
    assert pdf.path.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in media.iterdir() if p.suffix == ".pdf") == [pdf.path.name]
    assert not list(media.glob(".tmp-*"))


def test_changed_card_data_makes_a_new_file_and_removes_the_stale_one(media):
    printable = get_printable("bot-builders-instructions")
    old = printable_pdf(printable)
    changed = dataclasses.replace(
        printable, context=lambda: {**bb.instructions_context(), "deck_size": 49}
    )
    new = printable_pdf(changed)
    assert new.rendered is True
    assert new.key != old.key
    assert new.path.exists()
    assert not old.path.exists()
    assert b"49" in render_module.render_html(changed).encode()


def test_cache_key_covers_the_print_css_and_icons(monkeypatch):
    html = render_module.render_html(get_printable("bot-builders-teachback"))
    before = render_module.cache_key(html)
    # A different digest of the static assets (as after editing cards.css) changes the key.
    monkeypatch.setattr(render_module, "_asset_digest", lambda: b"edited stylesheet")
    assert render_module.cache_key(html) != before


def test_asset_digest_reads_the_print_css_and_icon_folders():
    roots = [
        str(root)
        for folder in render_module.ASSET_DIRS
        for root in finders.find(folder, find_all=True)
    ]
    assert any(root.endswith("css/print") for root in roots)
    assert any(root.endswith("img/icons") for root in roots)


def test_concurrent_first_downloads_render_once_and_all_get_the_whole_file(media):
    printable = get_printable("three-laws-laws")
    results, errors = [], []
    start = threading.Barrier(6)

    def download():
        try:
            start.wait()
            results.append(printable_pdf(printable))
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=download) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sum(result.rendered for result in results) == 1
    assert len({result.path for result in results}) == 1
    data = results[0].path.read_bytes()
    assert len(PdfReader(io.BytesIO(data)).pages) == printable.pages
