"""Both languages at once, for the projector of a bilingual classroom: `{% load bilingual %}`.

    {% bilingual %}{% translate "Draw pile" %}: {{ pile.count }}{% endbilingual %}

draws its content in English, then again in Spanish on a second line, when the context's
`bilingual` is true (the lobby chose "English + Español" for the projector); otherwise it draws it
once, in the active language. Each line carries its `lang`, so a screen reader switches voice.
"""

from django import template
from django.utils import translation
from django.utils.html import format_html_join

register = template.Library()

LINES = ("en", "es")


class BilingualNode(template.Node):
    def __init__(self, nodelist: template.NodeList):
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        if not context.get("bilingual"):
            return self.nodelist.render(context)
        lines = []
        for code in LINES:
            with translation.override(code):
                lines.append((code, self.nodelist.render(context)))
        return format_html_join("", '<span class="bilingual-line" lang="{}">{}</span>', lines)


@register.tag
def bilingual(parser: template.base.Parser, token: template.base.Token) -> BilingualNode:
    nodelist = parser.parse(("endbilingual",))
    parser.delete_first_token()
    return BilingualNode(nodelist)
