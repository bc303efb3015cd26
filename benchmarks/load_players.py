"""Simulated team devices: each one a thread that loads the device page, polls like htmx does,
and moves when its screen shows move buttons, recording every request's latency
(bench_faults.py). bench_lesson_load.py reads moves off a screen with the same patterns."""

from __future__ import annotations

import http.client
import random
import re
import threading
import time
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urlencode

# Which shown button a device presses: the first pattern that matches one.
PREFERENCES = [r"^BOT!$", r"^Install ", r"^Draw from the draw pile", r"^Discard ", r"."]


@dataclass
class Device:
    cookie: str
    label: str


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    polls: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    unchanged: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            getattr(self, kind).append(seconds)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


# A move button's form. A live region is drawn for htmx and its forms hold no CSRF token: htmx
# sends the page's (PAGE_TOKEN) with every request, and so do these clients.
FORM = re.compile(
    r'<input type="hidden" name="action" '
    r'value="([^"]*)">\s*<input type="hidden" name="version" value="(\d+)">\s*'
    r'<input type="hidden" name="client_move_id" value="([^"]+)">\s*'
    r"<button[^>]*>([^<]+)</button>"
)
# The CSRF token of a page, in its <body>'s hx-headers (templates/base.html).
PAGE_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')
POLL = re.compile(r'data-hx-get="([^"]+/poll/[^"]+)"')
MOVE_URL = re.compile(r'data-hx-post="(/play/tables/\d+/move/)"')


class Player(threading.Thread):
    """One team device: the page once, then a poll every `poll` seconds; moves while it is its
    turn."""

    def __init__(self, device: Device, port: int, deadline: float, stats: Stats, poll: float):
        super().__init__(daemon=True)
        self.device, self.port, self.deadline, self.stats, self.period = (
            device,
            port,
            deadline,
            stats,
            poll,
        )
        self.cookies = {"device": device.cookie}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.html = ""
        self.token = ""  # the page's CSRF token, sent as htmx sends it

    def request(self, method: str, path: str, body: str | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(self.cookies.values()), "HX-Request": "true"}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.token
            headers["Referer"] = f"http://127.0.0.1:{self.port}/play/"
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                if attempt:
                    raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie" and value.startswith("csrftoken="):
                self.cookies["csrf"] = value.split(";", 1)[0]
        return response.status, text

    def timed(self, kind: str, method: str, path: str, body: str | None = None):
        started = time.perf_counter()
        status, text = self.request(method, path, body)
        self.stats.add(kind, time.perf_counter() - started)
        return status, text

    def run(self) -> None:
        try:
            status, self.html = self.timed("pages", "GET", "/play/")
            page_token = PAGE_TOKEN.search(self.html)
            self.token = page_token[1] if page_token else ""
            if status != 200:
                self.stats.error(f"{self.device.label}: page {status}")
                return
            time.sleep(random.uniform(0, self.period))  # devices do not poll in step
            while time.time() < self.deadline:
                self.play_while_my_turn()
                next_poll = time.time() + self.period
                status, text = self.timed("polls", "GET", unescape(POLL.search(self.html)[1]))
                if status == 204:
                    with self.stats.lock:
                        self.stats.unchanged += 1
                elif status == 200 and 'id="live"' in text:
                    self.html = text
                else:
                    self.stats.error(f"{self.device.label}: poll {status}")
                time.sleep(max(0.0, next_poll - time.time()))
        except Exception as exc:  # noqa: BLE001 - every failure is counted, none is fatal
            self.stats.error(f"{self.device.label}: {exc!r}")

    def play_while_my_turn(self) -> None:
        for _ in range(10):
            forms = FORM.findall(self.html)
            if not forms or time.time() >= self.deadline:
                return
            action, version, move_id = choose(forms)
            body = urlencode(
                {
                    "action": unescape(action),
                    "version": version,
                    "client_move_id": move_id,
                }
            )
            status, text = self.timed("moves", "POST", MOVE_URL.search(self.html)[1], body)
            if status != 200 or "alert-error" in text:
                alert = re.search(r'role="alert">([^<]+)', text)
                self.stats.error(f"{self.device.label}: move {status} {alert and alert[1]}")
                return
            self.html = text


def choose(forms: list[tuple[str, ...]]) -> tuple[str, str, str]:
    """The action, version and move id of the first button `PREFERENCES` names."""
    for pattern in PREFERENCES:
        for action, version, move_id, label in forms:
            if re.search(pattern, unescape(label)):
                return action, version, move_id
    raise AssertionError("no button")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index] * 1000
