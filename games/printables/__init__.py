"""Printables: rule sheets, worksheets and card decks for tabletop play, as PDFs.

`registry` lists them (slug, title, paper, page count, template, context builder);
`bot_builders` and `three_laws` build each template's context from the engines' own data;
`layout` holds the paper templates; `render` makes and caches the PDFs; `fetcher` lets WeasyPrint
load the site's static files and nothing else.
"""

from games.printables.registry import PRINTABLES, Printable, by_game, get_printable
from games.printables.render import CachedPdf, printable_pdf

__all__ = ["PRINTABLES", "CachedPdf", "Printable", "by_game", "get_printable", "printable_pdf"]
