"""Words the engines say, kept translatable without making the engines depend on Django.

The engines stay pure: they speak in ids and plain English. Two small tools let the display layer
say the same thing in the viewer's language (docs/i18n.md):

- `N_("Camera")` marks a literal for `makemessages` (run with `--keyword=N_`) and returns it
  unchanged. Card names, texts, phase names and the like are marked where they are defined; the
  display layer translates them with `gettext` at the moment it draws them.
- `Reason` is the English sentence an engine gives for a refusal, which is still a `str` (the
  contract and every caller see plain English), carrying its marked template and its values so
  the display layer can say it again in another language: `reason.translated(gettext)`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def N_(text: str) -> str:  # noqa: N802 - the gettext convention, which makemessages looks for
    """Mark `text` for translation; it is translated where it is shown."""
    return text


class Reason(str):
    """An English sentence that remembers the template and values it was made from."""

    template: str
    params: Mapping[str, Any]
    translate_params: tuple[str, ...]

    def __new__(
        cls, template: str, translate_params: tuple[str, ...] = (), /, **params: Any
    ) -> Reason:
        reason = super().__new__(cls, template % params if params else template)
        reason.template = template
        reason.params = params
        # Values that are themselves marked words (a card's name, a phase), translated too.
        reason.translate_params = translate_params
        return reason

    def translated(self, gettext: Callable[[str], str]) -> str:
        """This sentence in the language `gettext` speaks."""
        params = {
            key: gettext(value)
            if key in self.translate_params and isinstance(value, str)
            else value
            for key, value in self.params.items()
        }
        template = gettext(self.template)
        return template % params if params else template


def say(text: str, gettext: Callable[[str], str]) -> str:
    """Any engine sentence in the language `gettext` speaks: a `Reason`, or a marked literal."""
    if isinstance(text, Reason):
        return text.translated(gettext)
    return gettext(text)
