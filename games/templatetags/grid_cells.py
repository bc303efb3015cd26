"""The projector grid's cells, kept as every grid of the class draws them: `{% load grid_cells %}`.

    {% grid_cells cells as drawn %}{% for cell in drawn %}{{ cell }}{% endfor %}

See games.views.regions.grid_cells.
"""

from django import template
from django.utils.safestring import SafeString

from games.views import regions

register = template.Library()


@register.simple_tag(takes_context=True)
def grid_cells(context: template.Context, cells: list) -> list[SafeString]:
    """Each cell drawn in the active language, in both languages for a bilingual projector."""
    return regions.grid_cells(cells, bilingual=bool(context.get("bilingual", False)))
