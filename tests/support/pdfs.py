"""Printables rendered to PDF once a run, with the warnings WeasyPrint logged."""

import io
import logging
from functools import cache

from pypdf import PdfReader

from games.printables import get_printable
from games.printables.render import render_html, render_pdf


@cache
def rendered(slug: str, language: str | None = None) -> tuple[bytes, tuple[str, ...]]:
    """The printable's PDF (in `language`, else the active one) and the warnings WeasyPrint
    logged making it (rendered once a run)."""
    handler = _Collect()
    weasy_logger = logging.getLogger("weasyprint")
    weasy_logger.addHandler(handler)
    try:
        pdf = render_pdf(render_html(get_printable(slug), language))
    finally:
        weasy_logger.removeHandler(handler)
    return pdf, tuple(handler.messages)


def pdf_reader(slug: str) -> PdfReader:
    return PdfReader(io.BytesIO(rendered(slug)[0]))


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
