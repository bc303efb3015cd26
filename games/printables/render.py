"""Render a printable to PDF once, then serve the file.

The cards never change between deployments, so each PDF is rendered on its first download and
kept under MEDIA_ROOT/printables/. The file name carries the language and a hash of everything
that shapes the PDF (the rendered HTML, which holds the template, the card data and the words in
that language, the print CSS and icons, and the WeasyPrint version), so a change to any of them
makes a new file instead of serving a stale one, and the copies in each language live side by
side: `{slug}-{key}.pdf` in the site's default language (English, the names files always had) and
`{slug}-{language}-{key}.pdf` in any other (`bot-builders-rules-es-<key>.pdf`).
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import weasyprint
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import translation

from games.printables.fetcher import BASE_URL, StaticOnlyFetcher
from games.printables.registry import Printable

logger = logging.getLogger(__name__)
# WeasyPrint logs every layout step at INFO; the site's root logger is at INFO, so without this
# each cold render would add a dozen lines per page to the server log.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

# Every static folder a printable may load from; their files are part of the cache key.
ASSET_DIRS: tuple[str, ...] = ("css/print", "img/icons")
KEY_LENGTH = 16


@dataclass(frozen=True, slots=True)
class CachedPdf:
    path: Path
    key: str
    rendered: bool  # True when this call rendered it (a cold cache), False when it was on disk
    language: str = "en"


def cache_dir() -> Path:
    return Path(settings.MEDIA_ROOT) / "printables"


def printable_language(language: str | None = None) -> str:
    """A language the site offers: `language` (or the active one) matched to LANGUAGES."""
    wanted = language or translation.get_language() or settings.LANGUAGE_CODE
    try:
        return translation.get_supported_language_variant(wanted)
    except LookupError:
        return settings.LANGUAGE_CODE


def render_html(printable: Printable, language: str | None = None) -> str:
    """The printable's HTML in `language` (default: the active one), without a request: nothing
    per-person may end up in a shared file."""
    with translation.override(printable_language(language)):
        return render_to_string(printable.template, {"printable": printable, **printable.context()})


def _asset_digest() -> bytes:
    digest = hashlib.sha256()
    for folder in ASSET_DIRS:
        for root in finders.find(folder, find_all=True):
            for path in sorted(Path(root).rglob("*")):
                if path.is_file():
                    digest.update(str(path.relative_to(root)).encode())
                    digest.update(path.read_bytes())
    return digest.digest()


def cache_key(html: str) -> str:
    digest = hashlib.sha256()
    digest.update(weasyprint.__version__.encode())
    digest.update(_asset_digest())
    digest.update(html.encode())
    return digest.hexdigest()[:KEY_LENGTH]


def render_pdf(html: str) -> bytes:
    """WeasyPrint, loading only the site's static files (see fetcher.py)."""
    document = weasyprint.HTML(string=html, base_url=BASE_URL, url_fetcher=StaticOnlyFetcher())
    return document.write_pdf()


def _write_atomically(path: Path, data: bytes) -> None:
    # A temporary file in the same folder, then a rename: a reader sees either no file or the
    # whole file, never half of one.
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as tmp:
        tmp.write(data)
        tmp.flush()
        os.fsync(tmp.fileno())
    # NamedTemporaryFile makes owner-only files; the PDF is public, and a web server or another
    # worker user may serve it.
    os.chmod(tmp.name, 0o644)
    os.replace(tmp.name, path)


def _file_stem(printable: Printable, language: str) -> str:
    if language == settings.LANGUAGE_CODE:
        return printable.slug
    return f"{printable.slug}-{language}"


def _remove_old_versions(printable: Printable, language: str, keep: Path) -> None:
    # Only this language's older copies: another language's file is current, not stale.
    own = re.compile(rf"{re.escape(_file_stem(printable, language))}-[0-9a-f]{{{KEY_LENGTH}}}\.pdf")
    for old in keep.parent.glob(f"{printable.slug}-*.pdf"):
        if not own.fullmatch(old.name):
            continue
        if old != keep:
            # A reader already streaming the old file keeps its open handle; unlinking is safe.
            old.unlink(missing_ok=True)


def printable_pdf(printable: Printable, language: str | None = None) -> CachedPdf:
    """The printable's PDF in `language` (default: the active one) on disk, rendering it first
    if no current copy exists."""
    language = printable_language(language)
    html = render_html(printable, language)
    key = cache_key(html)
    folder = cache_dir()
    path = folder / f"{_file_stem(printable, language)}-{key}.pdf"
    if path.exists():
        return CachedPdf(path=path, key=key, rendered=False, language=language)
    folder.mkdir(parents=True, exist_ok=True)
    # One render per printable at a time on this machine: concurrent first downloads wait for
    # the first one instead of all rendering. (Across machines they may each render; the atomic
    # rename keeps that harmless.)
    with open(folder / f".{printable.slug}-{language}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if path.exists():
                return CachedPdf(path=path, key=key, rendered=False, language=language)
            _write_atomically(path, render_pdf(html))
            _remove_old_versions(printable, language, keep=path)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    logger.info("Rendered printable %s in %s (%s)", printable.slug, language, key)
    return CachedPdf(path=path, key=key, rendered=True, language=language)
