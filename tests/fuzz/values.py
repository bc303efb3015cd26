"""The nasty values every parameter gets, and how they are put on the wire.

Requests are encoded here rather than by the test client, so a lone surrogate can be sent at
all (the client would refuse to encode it): it goes out as the bytes a broken client sends
("surrogatepass"), and Django decodes it as it would from any browser."""

from __future__ import annotations

from urllib.parse import quote, urlencode

NUL = "nul\x00byte"
LONG = "x" * 100_000
DEEP_JSON = "[" * 50_000 + "]" * 50_000

NASTY: dict[str, str] = {
    "nul": NUL,
    "lone_surrogate": "lone\ud800half",
    "100kb": LONG,
    "deep_json": DEEP_JSON,
    "json_with_nul": '{"type": "query", "target": "team-2", "question": "a\\u0000b"}',
    "json_with_surrogate": '{"type": "query", "target": "team-2", "question": "\\ud800"}',
    "superscript_two": "²",
    "arabic_three": "٣",
    "fullwidth_12": "１２",
    "negative": "-1",
    "zero": "0",
    "huge": "99999999999999999999",
    "float_overflow": "1e309",
    "nan": "NaN",
    "rtl": "\u202eevil\u202c مرحبا",
    "emoji": "🤖👩🏽‍🏫",
    "decomposed": "Zoe\u0308",
    "empty": "",
}

# Values that no text column may take: sent into a field that is saved, they must change nothing.
REFUSED = ("nul", "100kb", "deep_json")

# Ids in a URL: past PostgreSQL's integer and bigint.
HUGE_IDS = (2**31, 2**63)


def form_body(data: dict[str, str | list[str]]) -> bytes:
    return urlencode(data, doseq=True, encoding="utf-8", errors="surrogatepass").encode("ascii")


def path_segment(value: str) -> str:
    return quote(value, safe="", encoding="utf-8", errors="surrogatepass")


def file_bytes(value: str) -> bytes:
    """A value as the bytes of an uploaded file (a roster CSV), after a header row."""
    return b"name\n" + value.encode("utf-8", errors="surrogatepass") + b"\n"
