"""The wrapper of a live screen's region: `{% load live_region %}`.

    {% live_region stream_url morph %}
      {% partialdef live inline %}
        <div id="live" {% live_fetch poll_url %} data-hx-swap="morph">...</div>
      {% endpartialdef live %}
    {% endlive_region %}

`live_region` holds the screen's stream (htmx's SSE extension, games/views/stream.py): the
region inside fetches itself when the stream says `changed`, and the stream closes on `gone`.
With `morph`, the region's swaps keep what did not change (focus, open details). Without a
stream URL (a page with nothing live on it) only the content is drawn.

`live_fetch` gives the region its poll (games:poll) and what makes it fetch: the stream's
events, the fallback that static/js/live.js fires while the stream is not heard from, and a
slow poll of its own.
"""

from django import template
from django.utils.html import format_html

register = template.Library()

FETCH_TRIGGER = (
    "htmx:sseMessage from:closest .live-stream, live:poll from:closest .live-stream, every 10s"
)


class LiveRegionNode(template.Node):
    def __init__(self, url: template.base.FilterExpression, morph: bool, nodelist):
        self.url = url
        self.morph = morph
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        inner = self.nodelist.render(context)
        url = self.url.resolve(context)
        if not url:
            return inner
        return format_html(
            '<div class="live-stream" data-hx-ext="{}" data-sse-connect="{}" '
            'data-sse-close="gone" data-hx-trigger="sse:changed, sse:gone">{}</div>',
            "sse, morph" if self.morph else "sse",
            url,
            inner,
        )


@register.tag
def live_region(parser: template.base.Parser, token: template.base.Token) -> LiveRegionNode:
    match token.split_contents():
        case [_, url]:
            morph = False
        case [_, url, "morph"]:
            morph = True
        case _:
            raise template.TemplateSyntaxError(
                "Usage: {% live_region stream_url [morph] %}...{% endlive_region %}"
            )
    nodelist = parser.parse(("endlive_region",))
    parser.delete_first_token()
    return LiveRegionNode(parser.compile_filter(url), morph, nodelist)


@register.simple_tag
def live_fetch(url: str) -> str:
    """The attributes of a region that fetches itself through `url` (its poll URL)."""
    return format_html('data-hx-get="{}" data-hx-trigger="{}"', url, FETCH_TRIGGER)
