"""The printables page and the PDF downloads.

Public on purpose: the rules and the cards are no secret, and parents or a substitute may need
them without an account. Nothing here reads or writes a person's data, so there is no object for
an access check to guard; the only input, the slug, is looked up in the registry (404 otherwise).
"""

from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_safe

from games.printables import by_game, get_printable, printable_pdf

# Browsers and proxies may keep a PDF for a day; the ETag lets them check it cheaply after.
MAX_AGE = 60 * 60 * 24


@require_GET
def printables_index(request: HttpRequest) -> HttpResponse:
    return render(request, "printables/index.html", {"groups": by_game()})


@require_safe
def printable_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The PDF, inline (opens in the browser) or with ?download=1 as an attachment."""
    printable = get_printable(slug)
    pdf = printable_pdf(printable)
    etag = f'"{pdf.key}"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = FileResponse(
            pdf.path.open("rb"),
            as_attachment=request.GET.get("download") == "1",
            filename=printable.filename,
            content_type="application/pdf",
        )
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response
