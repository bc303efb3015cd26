"""The printables page and the PDF downloads.

Public on purpose: the rules and the cards are no secret, and parents or a substitute may need
them without an account. Nothing here reads or writes a person's data, so there is no object for
an access check to guard; the only input, the slug, is looked up in the registry (404 otherwise).

A printable is drawn in the viewer's active language: the index's Open and Download links carry
no language and follow it (the response says so in `Vary`, so no cache hands a Spanish PDF to an
English page). Under each printable the index also links the other language's copy with
`?lang=`, which names the language outright (a teacher of a bilingual class prints both).
"""

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language_info
from django.views.decorators.http import require_GET, require_safe

from games.printables import by_game, get_printable, printable_pdf
from games.printables.render import printable_language

# Browsers and proxies may keep a PDF for a day; the ETag lets them check it cheaply after.
MAX_AGE = 60 * 60 * 24


@require_GET
def printables_index(request: HttpRequest) -> HttpResponse:
    current = printable_language(getattr(request, "LANGUAGE_CODE", None))
    others = [
        {"code": code, "name": get_language_info(code)["name_local"]}
        for code, _name in settings.LANGUAGES
        if code != current
    ]
    context = {"groups": by_game(), "other_languages": others}
    return render(request, "printables/index.html", context)


def _requested_language(request: HttpRequest) -> tuple[str, bool]:
    """(language, named): `?lang=` when it names a language the site offers, else the active
    one (named=False: the response then depends on the cookie and Accept-Language)."""
    wanted = request.GET.get("lang", "")
    if wanted in dict(settings.LANGUAGES):
        return wanted, True
    return printable_language(getattr(request, "LANGUAGE_CODE", None)), False


@require_safe
def printable_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The PDF, inline (opens in the browser) or with ?download=1 as an attachment."""
    printable = get_printable(slug)
    language, named = _requested_language(request)
    pdf = printable_pdf(printable, language)
    etag = f'"{pdf.key}"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = FileResponse(
            pdf.path.open("rb"),
            as_attachment=request.GET.get("download") == "1",
            filename=printable.filename_for(language),
            content_type="application/pdf",
        )
    response["ETag"] = etag
    response["Content-Language"] = language
    if not named:
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response
