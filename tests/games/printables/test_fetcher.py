"""The printables' URL fetcher serves the site's own static files and refuses anything else."""

import pytest

from games.printables.fetcher import BASE_URL, RefusedURL, StaticOnlyFetcher


def test_serves_a_print_stylesheet_with_its_type():
    response = StaticOnlyFetcher().fetch(BASE_URL + "css/print/cards.css")
    body = response.read()
    response.close()
    assert b"avery-5388" in body
    assert response.content_type == "text/css"


def test_serves_an_icon_as_svg():
    response = StaticOnlyFetcher().fetch(BASE_URL + "img/icons/sense.svg")
    assert response.read().startswith(b"<svg")
    assert response.content_type == "image/svg+xml"
    response.close()


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://example.com/x.css",
        "https://example.com/static/css/print/base.css",
        "data:text/css,body{}",
        BASE_URL.replace("https:", "http:") + "css/print/base.css",
        BASE_URL + "../../etc/passwd",
        BASE_URL + "css/../../config/settings.py",
        BASE_URL + "css/print/%2e%2e/%2e%2e/%2e%2e/config/settings.py",
        BASE_URL + "/etc/passwd",
        BASE_URL + "css/print/nothing-here.css",
        BASE_URL + "css/print",
        BASE_URL,
    ],
)
def test_refuses_anything_but_an_existing_static_file(url):
    with pytest.raises(RefusedURL):
        StaticOnlyFetcher().fetch(url)
