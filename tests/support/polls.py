"""Reading a live screen's poll address and polling it."""

import re
from html import unescape

from django.test import Client


def poll_url_in(html: str) -> str:
    return unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', html).group(1))


def page_poll(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return poll_url_in(response.content.decode())
