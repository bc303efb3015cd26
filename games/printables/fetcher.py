"""The only way a printable's HTML may load anything: the site's own static files.

WeasyPrint would otherwise follow any URL in a template (file:, http:, data:), so a slip in a
template could read a server file or call out to the network. Templates link relative paths
("css/print/base.css") that resolve against `BASE_URL`; this fetcher maps those to the static
files Django's finders know and refuses every other URL.
"""

from __future__ import annotations

import mimetypes
import posixpath
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.contrib.staticfiles import finders
from weasyprint.urls import URLFetcher, URLFetcherResponse

# A reserved domain (RFC 2606): nothing real ever answers there, so no URL that reaches past this
# fetcher can go anywhere. https, not a made-up scheme, because relative URLs only join onto
# schemes urllib knows.
BASE_URL = "https://printables.botbench.invalid/static/"


class RefusedURL(ValueError):
    """A printable asked for something that is not one of the site's static files."""


def static_path(url: str) -> Path:
    """The static file `url` names, or RefusedURL."""
    parts = urlsplit(url)
    base = urlsplit(BASE_URL)
    if (parts.scheme, parts.netloc) != (base.scheme, base.netloc) or not parts.path.startswith(
        base.path
    ):
        raise RefusedURL(f"Printables load only the site's static files, not {url!r}.")
    relative = unquote(parts.path[len(base.path) :])
    clean = posixpath.normpath(relative)
    if not relative or clean != relative or clean.startswith(("/", "..")):
        raise RefusedURL(f"Not a plain static file path: {url!r}.")
    found = finders.find(clean)
    if not found or not Path(found).is_file():
        raise RefusedURL(f"No such static file: {clean!r}.")
    return Path(found)


class StaticOnlyFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that serves `static_path` files and refuses everything else.

    A refusal raises, which WeasyPrint logs as a warning and renders without the resource; the
    tests assert that no printable logs one.
    """

    def __init__(self) -> None:
        super().__init__(allowed_protocols=("https",), allow_redirects=False)

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        path = static_path(url)
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            url, body=path.read_bytes(), headers={"Content-Type": content_type}
        )
