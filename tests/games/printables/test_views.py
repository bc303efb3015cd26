"""The printables page and the PDF downloads, for every kind of visitor."""

import pytest
from django.urls import reverse

from games.printables import PRINTABLES

INDEX = reverse("games:printables")


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def pdf_url(slug: str) -> str:
    return reverse("games:printable", args=[slug])


def test_urls_are_the_ones_other_pages_link_to():
    assert INDEX == "/play/printables/"
    assert pdf_url("bot-builders-parts") == "/play/printables/bot-builders-parts.pdf"


@pytest.mark.parametrize(
    "visitor", ["outsider", "teacher_client", "school_admin_client", "other_teacher_client"]
)
def test_index_is_open_to_everyone_and_lists_every_printable(request, visitor):
    client = request.getfixturevalue(visitor)
    response = client.get(INDEX)
    assert response.status_code == 200
    html = response.content.decode()
    for printable in PRINTABLES:
        assert printable.title in html
        assert f'href="{pdf_url(printable.slug)}"' in html
        assert f'href="{pdf_url(printable.slug)}?download=1"' in html


def test_index_shows_paper_and_sheet_counts(outsider):
    html = outsider.get(INDEX).content.decode()
    assert "Avery 5388" in html
    assert "11 sheets" in html  # the parts deck
    assert "6 sheets" in html  # missions + glitches
    assert "actual size (100%)" in html


def test_teacher_menu_links_to_printables(teacher_client):
    html = teacher_client.get(reverse("classroom:dashboard")).content.decode()
    assert f'href="{INDEX}"' in html


def test_student_device_can_open_a_printable(device_client, open_session, students):
    client = device_client(open_session, students[0])
    response = client.get(pdf_url("bot-builders-rules"))
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF-")


def test_pdf_opens_inline_by_default(outsider):
    response = outsider.get(pdf_url("bot-builders-instructions"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'inline; filename="botbench-bot-builders-instructions.pdf"'
    )
    assert b"".join(response.streaming_content).startswith(b"%PDF-")


def test_download_flag_sends_an_attachment(outsider):
    response = outsider.get(pdf_url("bot-builders-instructions"), {"download": "1"})
    assert response["Content-Disposition"] == (
        'attachment; filename="botbench-bot-builders-instructions.pdf"'
    )


def test_second_download_is_served_from_the_cache_file(outsider, media):
    first = outsider.get(pdf_url("bot-builders-teachback"))
    body = b"".join(first.streaming_content)
    files = list((media / "printables").glob("*.pdf"))
    assert len(files) == 1
    mtime = files[0].stat().st_mtime_ns
    second = outsider.get(pdf_url("bot-builders-teachback"))
    assert b"".join(second.streaming_content) == body
    assert files[0].stat().st_mtime_ns == mtime
    assert second["ETag"] == first["ETag"]


def test_matching_etag_answers_not_modified(outsider):
    etag = outsider.get(pdf_url("bot-builders-teachback"))["ETag"]
    response = outsider.get(pdf_url("bot-builders-teachback"), headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response["ETag"] == etag
    assert "public" in response["Cache-Control"]


def test_unknown_printable_is_not_found_and_writes_nothing(outsider, media):
    response = outsider.get("/play/printables/no-such-deck.pdf")
    assert response.status_code == 404
    assert not (media / "printables").exists()


@pytest.mark.parametrize("path", ["/play/printables/../../etc/passwd.pdf", "/play/printables/x"])
def test_odd_paths_are_not_found(outsider, path):
    assert outsider.get(path).status_code == 404


def test_pdf_refuses_post(outsider):
    assert outsider.post(pdf_url("bot-builders-rules")).status_code == 405
    assert outsider.post(INDEX).status_code == 405
