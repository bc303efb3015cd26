"""Accessibility and HTML validity of every page state the browser tests reach.

Every browser context the tests open gets axe-core (from the npm registry, see package.json)
injected into its pages. The page checks itself on every load and after every htmx swap, and
reports back to Python; a state whose structure was already checked (same tags, classes and
attributes, any text) is not checked again, so a polled page costs one run per new look, not one
a poll. Any axe violation, of any impact, fails the test that reached it.

The same states are collected as HTML (the serialized DOM) and validated at the end of the run
in one batch by the W3C Nu HTML checker (vnu-jar from the npm registry, run with Debian's Java):
one JVM start for the whole run instead of one per page."""

import hashlib
import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
HTML_DIR = ROOT / "test-output" / "html"

# WCAG 2.2 level AA, what schools' accessibility policies cite: 2.0, 2.1 and 2.2's rules at
# levels A and AA (2.2 adds target size, focus not obscured). Any violation, of any impact, fails.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

PAGE_SCRIPT = Path(__file__).with_name("a11y_page.js")


@dataclass
class Auditor:
    """Shared by the whole run: which page looks were checked, and the HTML to validate."""

    seen: set[str] = field(default_factory=set)
    html_files: dict[str, str] = field(default_factory=dict)  # file name -> URL
    checked: int = 0

    def available(self) -> bool:
        return AXE_JS.exists()

    def attach(self, context, violations: list[dict]) -> None:
        """Inject axe into every page of `context`; violations found go to `violations`."""
        page_script = PAGE_SCRIPT.read_text().replace("__TAGS__", json.dumps(AXE_TAGS))
        # Not in frames: the reflow check lays pages out again in hidden frames of their own.
        script = f"if (window.top === window) {{\n{AXE_JS.read_text()}\n}}\n{page_script}"

        def seen(signature: str) -> bool:
            key = hashlib.sha1(signature.encode()).hexdigest()
            if key in self.seen:
                return True
            self.seen.add(key)
            return False

        def report(state: dict) -> None:
            self.checked += 1
            self.keep_html(state["url"], state["html"])
            for violation in state["violations"]:
                violations.append({**violation, "url": state["url"], "reason": state["reason"]})

        context.expose_function("__botbenchSeen", seen)
        context.expose_function("__botbenchReport", report)
        context.add_init_script(script)

    def keep_html(self, url: str, html: str) -> None:
        HTML_DIR.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha1(html.encode()).hexdigest()[:16] + ".html"
        (HTML_DIR / name).write_text(html)
        self.html_files[name] = url

    def validate_html(self) -> list[str]:
        """Run the Nu checker once over every collected page; its errors, one line each."""
        if not self.html_files:
            return []
        java = shutil.which("java")
        if not java or not VNU_JAR.exists():
            return [f"cannot validate HTML: java={java}, {VNU_JAR} exists={VNU_JAR.exists()}"]
        files = [str(HTML_DIR / name) for name in sorted(self.html_files)]
        command = [java, "-Xss8m", "-jar", str(VNU_JAR), "--format", "json", "--exit-zero-always"]
        run = subprocess.run(
            [*command, *files],
            capture_output=True,
            text=True,
            check=False,
        )
        messages = json.loads(run.stderr or run.stdout or '{"messages": []}')["messages"]
        errors = []
        for message in messages:
            if message.get("type") != "error":
                continue
            name = Path(message.get("url", "")).name
            errors.append(
                f"{self.html_files.get(name, name)} ({name} line {message.get('lastLine')}): "
                f"{message['message']} :: {message.get('extract', '').strip()[:160]}"
            )
        return errors


def settle(page) -> None:
    """Check the page's current look now (if not checked yet) and wait for every check queued."""
    try:
        page.evaluate("() => window.__botbenchCheck ? window.__botbenchCheck('step') : null")
    except Exception:  # noqa: BLE001 - a page that is closing or navigating has nothing to check
        return


def describe(violations: list[dict]) -> str:
    lines = [f"{len(violations)} accessibility violation(s) (axe-core, {', '.join(AXE_TAGS)}):"]
    for v in violations:
        lines.append(f"- [{v['impact']}] {v['id']}: {v['help']} at {v['url']} ({v['reason']})")
        lines.extend(f"    {node}" for node in v["nodes"])
    return "\n".join(lines)


@contextmanager
def audited_contexts(
    auditor: Auditor, open_one: Callable, *, timeout: float, navigation_timeout: float
) -> Iterator[Callable]:
    """`open_context(...)`: a new browser context made by `open_one(n, ...)` (n: how many were
    opened before it), with the tests' timeouts, every page state it reaches checked with axe.
    On leaving, each context's pages get their last checks and close; a violation fails the test.
    """
    contexts = []
    violations: list[dict] = []

    def open_context(*args, **kwargs):
        context = open_one(len(contexts), *args, **kwargs)
        context.set_default_timeout(timeout)
        context.set_default_navigation_timeout(navigation_timeout)
        auditor.attach(context, violations)
        contexts.append(context)
        return context

    open_context.violations = violations
    yield open_context
    for context in contexts:
        for page in context.pages:
            settle(page)
        context.close()
    if violations:
        pytest.fail(describe(violations), pytrace=False)
