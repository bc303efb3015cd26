"""Bot-Builders on screen: cards, benches, the action buttons and the narration of events.

Every function here takes an engine *view* (what one seat, or the public, may see) and the
team names; none ever sees the full state.

Words are translated again when they are drawn (`RetranslatedText`): the projector of a
bilingual classroom draws the same context twice, in English then in Spanish.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.utils.translation import gettext, pgettext_lazy

from games import display
from games.engines import bot_builders as bb
from games.engines.bot_builders.cards import HAND_LIMIT
from games.engines.i18n import N_


def _say_now(template: str, params: dict) -> str:
    text = gettext(template)
    return text % {key: str(value) for key, value in params.items()} if params else text


class RetranslatedText(str):
    """A `str` in the language active when it was made (what `join`, `==` and other code
    read), that says itself again in the language active when a template draws it (`str()`,
    which the template engine's escaping calls)."""

    def __new__(cls, template: str, params: dict) -> RetranslatedText:
        words = super().__new__(cls, _say_now(template, params))
        words.template = template
        words.params = params
        return words

    def __str__(self) -> str:
        return _say_now(self.template, self.params)


def lazy_say(template: str, **params: object) -> str:
    """`template` (marked with N_ where it is written) filled with `params`, both translated into
    the language active when the text is drawn; a param may itself be `RetranslatedText` (a
    card's name)."""
    return RetranslatedText(template, params)


def _word(text: str) -> str:
    """A marked word (a card's name, a category) that translates itself when drawn."""
    return RetranslatedText(text, {})


LABELS = {kind: _word(name) for kind, name in bb.CATEGORY_NAMES.items()}
# A slot's letter on a compact bench (the projector grid), chosen by the translator so that no
# two categories share one: in Spanish, Percibir and Pensar both begin with P.
INITIALS = {
    "sense": pgettext_lazy("category initial", "S"),
    "think": pgettext_lazy("category initial", "T"),
    "act": pgettext_lazy("category initial", "A"),
    "power": pgettext_lazy("category initial", "P"),
    "mission": pgettext_lazy("category initial", "M"),
}
PHASE_HEADINGS = {
    "draw": lazy_say(N_("Draw a card")),
    "act": lazy_say(N_("Play one card: install it, glitch a team, or discard it")),
    "discard_down": lazy_say(N_("Too many cards: discard down to %(limit)s"), limit=HAND_LIMIT),
    "bot": lazy_say(N_("Your bot is a Full Bot!")),
}


def _card_words(c: bb.Card) -> dict:
    return {
        "id": c.id,
        "name": _word(c.name),
        "kind": c.kind,
        "label": LABELS[c.kind],
        "text": _word(c.text),
        "slot": c.slot,
        "prefers": tuple(LABELS[k] for k in c.prefers),
    }


# Each card's words made once, as LABELS are (they say themselves in the language they are drawn
# in): a phone's region shows dozens of cards, and making their words anew for each drawing was
# much of its cost (docs/architecture.md, "What keeps a redraw cheap").
_CARD_WORDS = {card_id: _card_words(c) for card_id, c in bb.CARDS.items()}


def card(card_id: str | None) -> dict | None:
    """A card of the catalogue as a template shows it (a new dict: the caller's to change)."""
    if not card_id:
        return None
    return dict(_CARD_WORDS[card_id])


def name_of(seat: str, names: dict[str, str]) -> str:
    if seat == bb.DUMMY:
        return _word(N_("the dummy"))
    return names.get(seat, seat)


def bench(slots: dict[str, str | None]) -> dict:
    """The five slots in order (an empty slot has no card) and the bench's score so far."""
    score = bb.score_bench(slots)
    return {
        "slots": [
            {
                "slot": slot,
                "label": LABELS[slot],
                "initial": INITIALS[slot],
                "card": card(slots.get(slot)),
            }
            for slot in bb.SLOTS
        ],
        "score": score.total,
        "full_bot": score.full_bot,
    }


@dataclass
class Button:
    label: str
    action: str  # JSON, posted back as is
    style: str = ""


@dataclass
class ActionGroup:
    card: dict | None
    buttons: list[Button] = field(default_factory=list)


def _button(action: dict, view: dict, names: dict[str, str]) -> Button:
    kind = action["type"]
    payload = json.dumps(action, sort_keys=True)
    if kind == "draw":
        source = action["source"]
        if source == "deck":
            label = lazy_say(
                N_("Draw from the draw pile (%(count)s left)"), count=view["draw_pile"]
            )
            return Button(label, payload, "primary")
        if source == "discard":
            top = card(view["discard_top"])
            label = lazy_say(N_("Take %(card)s from the discard pile"), card=top["name"])
            return Button(label, payload)
        return Button(lazy_say(N_("Draw nothing")), payload)
    if kind == "bot":
        return Button(lazy_say(N_("BOT!")), payload, "bot")
    if kind == "pass":
        return Button(lazy_say(N_("Pass")), payload)
    c = card(action["card"])
    if kind == "install":
        old = card(view["benches"][view["current_seat"]].get(c["slot"]))
        if old:
            label = lazy_say(
                N_("Install %(card)s (%(category)s), replacing %(old)s"),
                card=c["name"],
                category=c["label"],
                old=old["name"],
            )
        else:
            label = lazy_say(
                N_("Install %(card)s (%(category)s)"), card=c["name"], category=c["label"]
            )
        return Button(label, payload, "primary")
    if kind == "glitch":
        target = name_of(action["target"], names)
        label = lazy_say(N_("Play %(card)s on %(target)s"), card=c["name"], target=target)
        return Button(label, payload, "glitch")
    return Button(lazy_say(N_("Discard %(card)s"), card=c["name"]), payload)


def action_groups(view: dict, actions: list[dict], names: dict[str, str]) -> list[ActionGroup]:
    """The legal actions as buttons: draw and BOT! choices first, then one group per card in
    the hand with that card's buttons. Only listed actions become buttons."""
    loose = ActionGroup(card=None)
    by_card: dict[str, ActionGroup] = {}
    for action in actions:
        button = _button(action, view, names)
        card_id = action.get("card")
        if card_id is None:
            loose.buttons.append(button)
        else:
            by_card.setdefault(card_id, ActionGroup(card=card(card_id))).buttons.append(button)
    groups = [loose] if loose.buttons else []
    hand_order = view.get("hand", [])
    groups += [by_card[c] for c in hand_order if c in by_card]
    return groups


@dataclass
class MoveSection:
    """A heading over some of the buttons. The first section of a screen is shown open; the
    others fold away (`<details>`) so the likely move is what a phone shows first."""

    key: str
    heading: str
    groups: list[ActionGroup]

    @property
    def count(self) -> int:
        return sum(len(group.buttons) for group in self.groups)


def _replaces(action: dict, view: dict) -> bool:
    bench = view["benches"][view["current_seat"]]
    return bench.get(bb.CARDS[action["card"]].slot) is not None


def move_sections(view: dict, actions: list[dict], names: dict[str, str]) -> list[MoveSection]:
    """The legal actions as sections of buttons, the likely move first.

    Playing a card: installing into an empty slot, then replacing a part, glitching a team and
    discarding, each with a heading (empty sections are left out). Drawing, shouting BOT! and
    discarding down: one section with the phase's heading. Every listed action is one button,
    and only listed actions are."""
    if view.get("phase") != "act":
        heading = PHASE_HEADINGS.get(view.get("phase", ""), lazy_say(N_("Your move")))
        return [MoveSection("main", heading, action_groups(view, actions, names))]
    kinds: dict[str, list[dict]] = {"install": [], "replace": [], "glitch": [], "discard": []}
    for action in actions:
        kind = action["type"]
        if kind == "install" and _replaces(action, view):
            kind = "replace"
        kinds.setdefault(kind, []).append(action)
    headings = {
        "install": lazy_say(N_("Install into an empty slot")),
        "replace": lazy_say(N_("Replace a part")),
        "glitch": lazy_say(N_("Glitch a team")),
        "discard": lazy_say(N_("Discard a card")),
    }
    sections = []
    for kind, chosen in kinds.items():
        if not chosen:
            continue
        groups = action_groups(view, chosen, names)
        if kind == "discard":
            # The card names are on the buttons and the cards were shown above: one list.
            groups = [ActionGroup(card=None, buttons=[b for g in groups for b in g.buttons])]
        sections.append(
            MoveSection(kind, headings.get(kind) or lazy_say(N_("Other moves")), groups)
        )
    return sections


def benches(view: dict, names: dict[str, str], first: str | None = None) -> list[dict]:
    """Every seat's bench in turn order (`first` moved to the front), with names and scores."""
    seats = list(view["seats"])
    if first in seats:
        seats.remove(first)
        seats.insert(0, first)
    rows = []
    for seat in seats:
        row = bench(view["benches"].get(seat) or {})
        row.update(
            seat=seat,
            name=name_of(seat, names),
            current=seat == view.get("current_seat"),
            hand_size=view.get("hand_sizes", {}).get(seat),
        )
        rows.append(row)
    return rows


def public_context(view: dict, names: dict[str, str]) -> dict:
    """What everyone may see: benches, piles, whose turn, the BOT! moment, solo's goal."""
    return _table_context(view, names, first=None)


def _table_context(view: dict, names: dict[str, str], first: str | None) -> dict:
    """`public_context` with the benches in turn order from `first` (a device shows its own
    first), worked out once: a device's drawing worked them out twice (docs/architecture.md,
    "What keeps a redraw cheap")."""
    current = view.get("current_seat")
    called = view.get("bot_called_by")
    dummy = view.get("dummy_bench")
    return {
        "benches": benches(view, names, first=first),
        "discard_top": card(view.get("discard_top")),
        "discard_size": view.get("discard_size", 0),
        "draw_pile": view.get("draw_pile", 0),
        "current_seat": current,
        "current_name": name_of(current, names) if current else "",
        "phase": view.get("phase"),
        "bot_called_by": name_of(called, names) if called else "",
        "last_turns_left": view.get("last_turns_left", 0),
        "final_turn": view.get("final_turn", False),
        "solo": view.get("solo", False),
        "dummy_bench": bench(dummy) if dummy is not None else None,
        "goal": bb.SOLO_WIN_SCORE,
    }


def device_context(view: dict, actions: list[dict], names: dict[str, str], seat: str) -> dict:
    """The team device: its own hand and bench first, its buttons, then the table."""
    context = _table_context(view, names, first=seat)
    context.update(
        your_turn=view.get("current_seat") == seat,
        hand=[card(card_id) for card_id in view.get("hand", [])],
        sections=move_sections(view, actions, names),
        heading=PHASE_HEADINGS.get(view.get("phase", ""), ""),
        bot_choice=any(a["type"] == "bot" for a in actions),
        my_bench=context["benches"][0] if context["benches"] else None,
        other_benches=context["benches"][1:],
    )
    return context


def results_rows(results: list[dict] | None, names: dict[str, str]) -> list[dict]:
    rows = []
    for entry in results or []:
        breakdown = entry.get("breakdown", {})
        rows.append(
            {
                "seat": entry["seat"],
                "name": name_of(entry["seat"], names),
                "place": entry["place"],
                "score": entry["score"],
                "parts": breakdown.get("parts", 0),
                "four_loop": breakdown.get("four_loop", 0),
                "mission": breakdown.get("mission", 0),
                "mission_match": breakdown.get("mission_match", 0),
                "full_bot": breakdown.get("full_bot", 0),
                "won": entry.get("won"),
            }
        )
    return rows


def _card_name(card_id: str | None) -> str:
    return _word(bb.CARDS[card_id].name if card_id else N_("a card"))


def narrate(event: dict, names: dict[str, str]) -> str | None:
    """One event in plain words, or None for bookkeeping events not worth a line."""
    kind = event.get("type")
    who = name_of(event.get("seat", ""), names)
    if kind == "drew":
        source = event["source"]
        if source == "deck":
            return lazy_say(N_("%(who)s drew from the draw pile."), who=who)
        if source == "discard":
            return lazy_say(
                N_("%(who)s took %(card)s from the discard pile."),
                who=who,
                card=_card_name(event["card"]),
            )
        return lazy_say(N_("%(who)s drew nothing."), who=who)
    if kind == "installed":
        card_name = _card_name(event["card"])
        if event.get("replaced"):
            return lazy_say(
                N_("%(who)s installed %(card)s, replacing %(old)s."),
                who=who,
                card=card_name,
                old=_card_name(event["replaced"]),
            )
        return lazy_say(N_("%(who)s installed %(card)s."), who=who, card=card_name)
    if kind == "glitched":
        params = {
            "who": who,
            "card": _card_name(event["card"]),
            "target": name_of(event["target"], names),
            "part": _card_name(event.get("part")),
            "slot": LABELS[event["slot"]],
        }
        effect = event["effect"]
        if effect == "discarded":
            template = N_("%(who)s played %(card)s on %(target)s: the %(part)s was discarded.")
        elif effect == "returned":
            template = N_(
                "%(who)s played %(card)s on %(target)s: the %(part)s went back to "
                "%(target)s's hand."
            )
        else:
            template = N_(
                "%(who)s played %(card)s on %(target)s: it fizzled, the %(slot)s slot was empty."
            )
        return lazy_say(template, **params)
    if kind == "discarded":
        if event.get("reason") == "hand_limit":
            template = N_("%(who)s discarded %(card)s (hand limit).")
        else:
            template = N_("%(who)s discarded %(card)s.")
        return lazy_say(template, who=who, card=_card_name(event["card"]))
    if kind == "bot":
        return lazy_say(N_("%(who)s shouted BOT!"), who=who)
    if kind == "act_skipped":
        return lazy_say(N_("%(who)s had no card to play."), who=who)
    if kind == "dummy_flip":
        card_name = _card_name(event["card"])
        if event["result"] == "installed":
            return lazy_say(N_("The dummy flipped %(card)s: installed."), card=card_name)
        return lazy_say(N_("The dummy flipped %(card)s: discarded."), card=card_name)
    if kind == "draw_pile_empty":
        return lazy_say(N_("The draw pile is empty: this is %(who)s's last turn."), who=who)
    if kind == "game_over":
        return lazy_say(N_("The round is over!"))
    if kind == "bench_recorded":
        return lazy_say(N_("%(who)s recorded their bench."), who=who)
    return None


def narrate_moves(moves: list, names: dict[str, str]) -> list[str]:
    """The lines for `moves` (newest first), newest line first."""
    return display.narrate_moves(moves, names, narrate)
