"""The watch token: what a live screen shows and for whom, signed into the page.

Every live screen (a device's game, the lobby, the spotlight, an export's status...) carries one
token of this format in its poll URL and its stream URL (games:poll, games:stream). The token
names the screen's *view* and what it watches: a session, tables, topics (classroom/push.py),
and who it was drawn for (a device's binding or a person). Nothing in it is trusted unsigned.

It sits in `classroom`, the bottom app, because pages of all three apps mint one: the lobby
here, the game screens in `games`, an export's status in `reports`. Each app also registers
how its screens are re-drawn (`redraws`), so the one poll in `games` can answer a screen of
`reports` without importing upwards.

A token is checked before anything trusts it: a length limit before any decoding, then the
signature, then its shape (each field of the type, and the count of tables, its view needs).
Anything else is refused as a bad token (the screen reloads), never raised.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlencode

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from classroom import push

_SALT = "classroom.watch"
# A school day: a screen left open longer simply reloads itself (see the poll view).
TOKEN_MAX_AGE = 60 * 60 * 16
# A token the site signs is a few hundred characters (a teacher's list of a class's tables
# stays well under this); a longer one is refused before it is decoded.
MAX_TOKEN_CHARS = 2048

# The live screens. A device's screens are held by a device binding, the others by a person.
DEVICE = "device"  # a team's game (games)
WAITING = "waiting"  # a team waiting for its table (games)
DEVICE_LOBBY = "device-lobby"  # a device that joined, before the tables (classroom)
PROJECTOR = "projector"  # one table on the projector (games)
GRID = "grid"  # every table of a session on the projector (games)
TEACHER = "teacher"  # the teacher's dashboard of tables (games)
LOBBY = "lobby"  # who has joined, on the projector (classroom)
SPOTLIGHT = "spotlight"  # the teach-back sentence on the projector (games)
EXPORT = "export"  # an export's progress (reports)
DEVICE_VIEWS = frozenset({DEVICE, WAITING, DEVICE_LOBBY})
VIEWS = frozenset({*DEVICE_VIEWS, PROJECTOR, GRID, TEACHER, LOBBY, SPOTLIGHT, EXPORT})
# How many tables a screen shows: one, none, or any number (missing here).
_TABLES = {
    DEVICE: 1,
    PROJECTOR: 1,
    WAITING: 0,
    DEVICE_LOBBY: 0,
    LOBBY: 0,
    SPOTLIGHT: 0,
    EXPORT: 0,
}


@dataclass(frozen=True)
class Watch:
    """What a live page shows and for whom."""

    view: str
    session_id: int | None
    game_ids: tuple[int, ...] = ()
    seat: str = ""
    binding_id: int | None = None
    user_id: int | None = None
    export_id: int | None = None

    # Lists of tables re-draw when tables are added; the teacher's page also shows ages.
    @property
    def watches_session(self) -> bool:
        return self.view in (WAITING, GRID, TEACHER)

    @property
    def shows_clock(self) -> bool:
        return self.view == TEACHER

    @property
    def topics(self) -> tuple[str, ...]:
        """The topics (classroom/push.py) whose stamps change when this screen changes."""
        if self.view == LOBBY:
            return (push.lobby_topic(self.session_id),)
        if self.view == DEVICE_LOBBY:
            # Its binding too: a device freed or closed out is sent back to the join page.
            return (push.lobby_topic(self.session_id), push.binding_topic(self.binding_id))
        if self.view == SPOTLIGHT:
            return (push.spotlight_topic(self.session_id),)
        if self.view == EXPORT:
            return (push.export_topic(self.export_id),)
        return ()


# Every redraw puts the screen's watch in its poll URL again, signed anew (JSON, compression,
# HMAC): the same token but for its timestamp. A token signed in the last minute is reused; its
# age only ever counts against TOKEN_MAX_AGE.
MINT_REUSE_SECONDS = 60


def mint(watch: Watch) -> str:
    return _minted(watch, int(time.time() // MINT_REUSE_SECONDS))


@functools.lru_cache(maxsize=8192)
def _minted(watch: Watch, minute: int) -> str:
    payload: dict = {"w": watch.view}
    optional = {
        "s": watch.session_id,
        "t": watch.seat or None,
        "b": watch.binding_id,
        "u": watch.user_id,
        "e": watch.export_id,
    }
    payload.update({key: value for key, value in optional.items() if value is not None})
    if watch.game_ids:
        payload["g"] = list(watch.game_ids)
    return signing.dumps(payload, salt=_SALT, compress=True)


def read(token: str) -> Watch | None:
    """The watch a token was minted for, or None if it is too long, forged, garbled, of a shape
    no screen mints, or too old."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
        return None
    try:
        watch, signed_at = _verified(token)
    except BadToken:
        return None
    return watch if time.time() - signed_at <= TOKEN_MAX_AGE else None


class BadToken(Exception):
    pass


# A screen sends the same token with every poll until its next redraw, and checking it (the
# signature's HMAC, decompressing, JSON) was a quarter of an unchanged poll's cost: each process
# keeps the tokens it has verified, enough for every screen of a busy school. A refusal raises,
# and lru_cache keeps no call that raised: junk tokens take no room. The token's age is checked
# on every read.
@functools.lru_cache(maxsize=8192)
def _verified(token: str) -> tuple[Watch, int]:
    """The watch in a token whose signature holds, and when it was signed; BadToken otherwise."""
    try:
        payload = signing.loads(token, salt=_SALT)
        # The signature held, so the token is "payload:timestamp:signature".
        signed_at = signing.b62_decode(token.rsplit(":", 2)[1])
    except (signing.BadSignature, ValueError, IndexError, UnicodeError) as exc:
        raise BadToken from exc
    return _watch_from(payload), signed_at


_FIELDS = frozenset("wsgtbue")


def _watch_from(payload: object) -> Watch:
    """The watch a signed payload describes, if it has the shape `mint` gives a screen."""
    if not isinstance(payload, dict) or not set(payload) <= _FIELDS:
        raise BadToken
    view = payload.get("w")
    if not isinstance(view, str) or view not in VIEWS:
        raise BadToken
    games = payload.get("g", [])
    if not isinstance(games, list) or not all(_is_id(g) for g in games):
        raise BadToken
    seat = payload.get("t", "")
    if not isinstance(seat, str):
        raise BadToken
    ids = {key: payload.get(key) for key in "sbue"}
    if not all(value is None or _is_id(value) for value in ids.values()):
        raise BadToken
    watch = Watch(
        view=view,
        session_id=ids["s"],
        game_ids=tuple(games),
        seat=seat,
        binding_id=ids["b"],
        user_id=ids["u"],
        export_id=ids["e"],
    )
    if not _complete(watch):
        raise BadToken
    return watch


def _is_id(value: object) -> bool:
    return type(value) is int and value > 0


def _complete(watch: Watch) -> bool:
    """The fields its view needs are there, and no holder but the one the view has."""
    if watch.view in DEVICE_VIEWS:
        holder = watch.binding_id is not None and watch.user_id is None
    else:
        holder = watch.user_id is not None and watch.binding_id is None
    tables = _TABLES.get(watch.view)
    if tables is not None and len(watch.game_ids) != tables:
        return False
    if watch.view == DEVICE and not watch.seat:
        return False
    if watch.view == EXPORT:
        return holder and watch.export_id is not None
    return holder and watch.session_id is not None and watch.export_id is None


def urls(watch: Watch, shown: str) -> dict[str, str]:
    """What a live page needs to stay fresh, given the fingerprint `shown` of what it shows: its
    stream, the poll with the token alone (`live_url`: a region may send the fingerprint it
    shows from inside itself, `live_version`) and the full poll URL of the page as drawn."""
    token = mint(watch)
    live_url = f"{reverse('games:poll')}?{urlencode({'t': token})}"
    return {
        "poll_url": f"{live_url}&{urlencode({'v': shown})}",
        "live_url": live_url,
        "live_version": shown,
        "stream_url": f"{reverse('games:stream')}?{urlencode({'t': token, 'v': shown})}",
    }


def topic_stamps(watch: Watch, found: dict | None = None) -> dict[str, str]:
    """The stamps of a screen's topics by key; `found`: the values a read of several keys just
    got (see push.stamp)."""
    return {push.topic_key(name): push.stamp(name, found) for name in watch.topics}


def topics_shown(stamps: dict[str, str]) -> str:
    """The part of a screen's fingerprint its topics' stamps make ("" without topics)."""
    return "".join(f"~{stamp}" for stamp in stamps.values())


def topic_page_urls(watch: Watch) -> dict[str, str]:
    """`urls` for a page whose screen watches topics only (a lobby, an export)."""
    return urls(watch, topics_shown(topic_stamps(watch)))


# -- re-drawing: each app says how its screens are drawn again -------------------------------


class Seen(Protocol):
    """What the poll read of a screen's keys (games.live.Fingerprint): the screen's watch and
    the values it compared."""

    watch: Watch

    def render(self) -> str:
        """The fingerprint of what the screen shows now."""
        ...


Redraw = Callable[[HttpRequest, Seen], HttpResponse]
_redraws: dict[str, Redraw] = {}


def redraws(view: str) -> Callable[[Redraw], Redraw]:
    """Register the function that re-draws a screen of `view` for the poll: it checks who asks
    as the page does, then answers with the page's live region (or sends the screen on)."""

    def register(redraw: Redraw) -> Redraw:
        _redraws[view] = redraw
        return redraw

    return register


def redrawn_urls(seen: Seen) -> dict[str, str]:
    """`urls` for a region the poll re-draws: with the fingerprint it read before the drawing
    (a change in between makes the next poll draw again, which is always safe)."""
    return urls(seen.watch, seen.render())


def redraw_of(view: str) -> Redraw | None:
    """The registered redraw (the views modules register theirs as the URLconf loads them)."""
    return _redraws.get(view)
