"""No text handed to people slips past translation (issue 40).

Two patterns put English on Spanish pages while looking translated:
- `{% translate category|title %}` in a template: the filter runs before the lookup, so the
  catalogue is asked for "Sense" built from the id "sense" (or for a variable's value, changed),
  and a msgid made at run time is never in the catalogue. A category's name comes from
  `{{ kind|category_name }}`; any other filtered value is translated first, then filtered.
- an f-string (or a plain literal) given to a person from a view: a message, a response's body,
  or a value of a page's context. Such text goes through gettext with its values as
  placeholders.

Both are scanned for in the source, so a new one fails here before a Spanish class meets it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html")) + sorted(
    (ROOT / "templates").rglob("*.txt")
)
VIEWS = sorted(
    path
    for app in ("classroom", "games", "reports")
    for path in [*(ROOT / app).glob("views.py"), *(ROOT / app / "views").glob("*.py")]
)

# `{% translate <argument> ... %}` / `{% trans ... %}`: the argument is a quoted string or a
# variable, and a `|` right after it is a filter applied before the lookup.
TRANSLATE_TAG = re.compile(r"\{%-?\s*(?:translate|trans)\s+(\"[^\"]*\"|'[^']*'|[^\s%]+)")

MESSAGE_FUNCTIONS = {"debug", "info", "success", "warning", "error", "add_message"}
RESPONSES = {
    "HttpResponse",
    "HttpResponseBadRequest",
    "HttpResponseForbidden",
    "HttpResponseNotFound",
    "HttpResponseNotAllowed",
    "HttpResponseGone",
    "HttpResponseServerError",
}
# Text that is no one's language: markup, ids, numbers.
WORDS = re.compile(r"[A-Za-z]{2,}")


def filtered_translations(text: str) -> list[str]:
    found = []
    for match in TRANSLATE_TAG.finditer(text):
        argument = match.group(1)
        if argument.startswith(("'", '"')):
            rest = text[match.end() : match.end() + 1]
            if rest == "|":
                found.append(match.group(0) + "|…")
        elif "|" in argument:
            found.append(match.group(0))
    return found


def test_the_pattern_finds_a_filtered_translation():
    assert filtered_translations("{% translate category|title %}")
    assert filtered_translations('{% trans "Sense"|upper %}')
    assert filtered_translations("{% translate slot|title as label %}")
    assert not filtered_translations('{% translate "Think | Act" %}')
    assert not filtered_translations('{% translate "Sense" context "category" %}')
    assert not filtered_translations("{% translate mission.name %}")


def test_no_template_translates_a_filtered_value():
    found = [
        f"{path.relative_to(ROOT)}: {tag}"
        for path in TEMPLATES
        for tag in filtered_translations(path.read_text())
    ]
    assert not found, "translate the value, then filter it:\n" + "\n".join(found)


def _is_people_text(node: ast.AST) -> bool:
    """An f-string, or a literal with words in it."""
    if isinstance(node, ast.JoinedStr):
        literal = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
        return bool(WORDS.search(literal))
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(WORDS.search(node.value)) and " " in node.value.strip()
    return False


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def untranslated_text(source: str) -> list[tuple[int, str]]:
    """(line, what) for each literal or f-string handed to a person in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        handed: list[ast.AST] = []
        if name in MESSAGE_FUNCTIONS and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "messages":
                handed = node.args[1:] + [k.value for k in node.keywords if k.arg == "message"]
        elif name in RESPONSES:
            handed = node.args[:1] + [k.value for k in node.keywords if k.arg == "content"]
        elif name == "render" and len(node.args) >= 3 and isinstance(node.args[2], ast.Dict):
            handed = list(node.args[2].values)
        for value in handed:
            if _is_people_text(value):
                found.append((node.lineno, ast.unparse(value)[:80]))
    return found


def test_the_scan_finds_untranslated_text():
    source = """
from django.contrib import messages
def view(request, count):
    messages.success(request, f"{count} tables playing.")
    messages.error(request, "That did not work.")
    messages.info(request, gettext("Fine."))
    HttpResponse(f"Table {count} is gone")
    render(request, "x.html", {"title": "All tables", "code": "ab12"})
"""
    assert [line for line, _ in untranslated_text(source)] == [4, 5, 7, 8]


def test_no_view_hands_untranslated_text_to_a_person():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in VIEWS
        for line, text in untranslated_text(path.read_text())
    ]
    assert not found, "mark these for translation (gettext with placeholders):\n" + "\n".join(found)
