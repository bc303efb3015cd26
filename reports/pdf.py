"""Reports to PDF with WeasyPrint, which may load nothing but the site's own static files and the
chart images this render made.

The fetcher is the printables' `StaticOnlyFetcher` (games/printables/fetcher.py: static files
only, every other URL refused, file:, http(s): and data: included). Reports add one exception:
the exact `data:` URIs of the charts drawn for this document, known before rendering. Student
text is escaped by the templates anyway; the fetcher is the second wall, so even raw HTML with
`<img src="file:///etc/passwd">` or `<link href="http://127.0.0.1:9/x">` loads nothing
(tests/reports/test_pdf_fetcher.py).
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterable

import weasyprint
from weasyprint.urls import URLFetcherResponse

from games.printables.fetcher import BASE_URL, RefusedURL, StaticOnlyFetcher

logger = logging.getLogger(__name__)
SVG_PREFIX = "data:image/svg+xml;base64,"


class ReportFetcher(StaticOnlyFetcher):
    """Static files, plus the chart images named in `images` (exact `data:` URIs)."""

    def __init__(self, images: Iterable[str] = ()) -> None:
        super().__init__()
        self.images = frozenset(images)
        self.refused: list[str] = []

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        if url in self.images and url.startswith(SVG_PREFIX):
            body = base64.b64decode(url[len(SVG_PREFIX) :], validate=True)
            return URLFetcherResponse(
                "chart.svg", body=body, headers={"Content-Type": "image/svg+xml"}
            )
        try:
            return super().fetch(url, headers)
        except RefusedURL:
            # Kept for the tests and the log: a refused URL means a template or a student's
            # text tried to load something it must not.
            self.refused.append(url[:200])
            logger.warning("Report PDF refused to load %s", url[:200])
            raise


def html_to_pdf(html: str, *, images: Iterable[str] = (), fetcher: ReportFetcher | None = None):
    """The PDF bytes of `html`; relative links resolve against the static files."""
    fetcher = fetcher or ReportFetcher(images)
    document = weasyprint.HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher)
    return document.write_pdf()
