"""3 Laws of Robotics on screen: faction cards, laws, keys and tokens, the Error calls, the
buttons of a seat and of the facilitator, and the narration of events.

Every function here takes an engine *view* (what one seat, or the public, may see) and the team
names; none ever sees the full state, so a seat's own card cannot reach its page before Reveal.

Every word is lazy: it is put in the viewer's language when the template draws it, not when the
context is built. The projector of a bilingual classroom draws one context twice, in English
then in Spanish (`{% bilingual %}`), so a word translated early would show in one language only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.text import format_lazy
from django.utils.translation import get_language, gettext, ngettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import display
from games.engines import three_laws
from games.engines.i18n import say
from games.engines.three_laws.components import (
    A_MEMBER,
    EXAMPLE_QUESTIONS,
    FACTION_NAMES,
    QUESTION_MAX_CHARS,
)

# Words drawn later, in the language active then: a str or a lazy Promise.
Text = str | Promise

PHASE_LABELS = {
    "setup": _("Setup"),
    "wake_up": _("Wake up"),
    "query": _("Questions"),
    "transfer": _("Key transfers"),
    "reveal": _("Reveal"),
    "over": _("Game over"),
}
LAST_ROUND = 4
CALL_STATUS = {
    "active": pgettext_lazy("an Error call", "stands"),
    "countered": pgettext_lazy("an Error call", "countered"),
    "voided": pgettext_lazy("an Error call", "voided by the teacher"),
}
# One whole sentence per number of factions that scored (at most all three).
SCORED_BANNER = {
    1: _("%(first)s scored this round!"),
    2: _("%(first)s and %(second)s scored this round!"),
    3: _("%(first)s and %(second)s and %(third)s scored this round!"),
}
SCORED_LINE = {
    1: _("%(first)s scored this round."),
    2: _("%(first)s and %(second)s scored this round."),
    3: _("%(first)s and %(second)s and %(third)s scored this round."),
}
NOBODY_SCORED = _("No faction scored this round.")


def _now(value: Any) -> Any:
    return str(value) if isinstance(value, Promise) else value


def _translated_filled(template: Text, params: dict[str, Any]) -> str:
    # `template % values` on a lazy template translates it now (a plural one picks its form
    # from the "count" value), then fills it.
    if not params:
        return str(template)
    return str(template % {key: _now(value) for key, value in params.items()})


_translated_filled_later = lazy(_translated_filled, str)


def words(template: Text, **params: Any) -> Text:
    """A sentence marked with gettext_lazy / ngettext_lazy (with "count"), filled with `params`
    (which may be lazy words themselves), in the language active when it is drawn."""
    return _translated_filled_later(template, params)


def _said(text: str) -> str:
    return say(text, gettext)


_said_later = lazy(_said, str)


def said(text: str) -> Text:
    """An engine's word or sentence (marked N_, or a Reason), in the language active when it
    is drawn."""
    return _said_later(text)


@dataclass
class Button:
    label: Text
    action: str  # JSON, posted back as is
    style: str = ""


def _payload(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def name_of(seat: str | None, names: dict[str, str]) -> Text:
    if seat is None:
        return ""
    if seat == three_laws.FACILITATOR:
        return _("the teacher")
    return names.get(seat, seat)


def faction_name(faction: str) -> Text:
    return said(FACTION_NAMES[faction])


def card(raw: list | None) -> dict | None:
    """A faction card [faction, rank] as the templates draw it."""
    if not raw:
        return None
    faction, rank = raw
    return {"faction": faction, "label": faction_name(faction), "rank": rank}


def law_text(law_id: str | None) -> Text:
    text = three_laws.LAWS.get(law_id or "", "")
    return said(text) if text else ""


def _law_number(law_id: str) -> int:
    return int(law_id.rsplit("_", 1)[1])


def laws(view: dict) -> list[dict]:
    return [
        {"id": law["id"], "number": _law_number(law["id"]), "text": said(law["text"])}
        for law in view["laws"]
    ]


def seats(view: dict, names: dict[str, str], me: str | None = None) -> list[dict]:
    """Every seat in turn order (the start player first) with what the viewer may see of it.

    `hidden` marks the viewer's own card while it is face down: the view holds no card for it,
    so the template can only draw the "?".
    """
    current = view["current_seat"]
    revealed = view["phase"] in ("reveal", "over")
    rows = []
    for seat in view["order"]:
        rows.append(
            {
                "seat": seat,
                "name": name_of(seat, names),
                "me": seat == me,
                "card": card(view["cards"].get(seat)),
                "hidden": seat == me and not revealed and view["phase"] != "setup",
                "keys": view["keys"][seat],
                "tokens": view["tokens"][seat],
                "vp_count": view["vp_counts"][seat],
                "current": seat == current,
                "start": seat == view["start_seat"],
            }
        )
    return rows


def calls(view: dict, names: dict[str, str]) -> list[dict]:
    """This round's Error calls and counters, oldest first, in plain words."""
    rows = []
    for call in view["calls"]:
        if call["round"] != view["round"]:
            continue
        caller = name_of(call["caller"], names)
        offender = name_of(call["offender"], names)
        if call["kind"] == "error":
            text = words(
                _("%(caller)s called Error on %(offender)s"), caller=caller, offender=offender
            )
            law = law_text(call["law"])
        else:
            text = words(
                _("%(caller)s called Error on the caller, %(offender)s"),
                caller=caller,
                offender=offender,
            )
            law = ""
        rows.append(
            {
                "id": call["call"],
                "kind": call["kind"],
                "text": text,
                "law": law,
                "status": call["status"],
                "status_label": CALL_STATUS.get(call["status"], call["status"]),
            }
        )
    return rows


def _factions_sentence(templates: dict[int, Text], factions: list[str]) -> Text:
    named = [faction_name(f) for f in factions]
    keys = ("first", "second", "third")[: len(named)]
    return words(templates[len(named)], **dict(zip(keys, named, strict=True)))


def scored_factions(view: dict) -> list[Text]:
    if view["scored_round"] != view["round"] or view["phase"] not in ("reveal", "over"):
        return []
    return [faction_name(f) for f in view["scored"]]


def scored_banner(view: dict) -> Text:
    """The Reveal banner: who scored this round, in one sentence."""
    if not scored_factions(view):
        return NOBODY_SCORED
    return _factions_sentence(SCORED_BANNER, view["scored"])


def turn_text(view: dict, names: dict[str, str]) -> Text:
    """Whose turn it is, in words everyone may read (the projector and every device)."""
    phase = view["phase"]
    current = name_of(view["current_seat"], names)
    offer = view["pending_offer"]
    if phase == "setup":
        return _("Cards are dealt face down. The teacher wakes the robots up.")
    if phase == "wake_up":
        return _("Look at the other robots' cards. The teacher starts the questions.")
    if phase == "query":
        return words(_("%(name)s asks a question"), name=current)
    if phase == "transfer":
        if offer:
            return words(
                ngettext_lazy(
                    "%(giver)s offers %(count)s key to %(name)s: accept or reject?",
                    "%(giver)s offers %(count)s keys to %(name)s: accept or reject?",
                    "count",
                ),
                giver=name_of(offer["from"], names),
                count=offer["keys"],
                name=current,
            )
        if current:
            return words(_("%(name)s gives or keeps their keys"), name=current)
        return _("Every team has had its turn. The teacher reveals the cards.")
    if phase == "reveal":
        return _("Cards revealed!")
    return _("The game is over.")


def _keys(count: int) -> Text:
    return words(ngettext_lazy("%(count)s key", "%(count)s keys", "count"), count=count)


def round_label(view: dict) -> Text:
    return words(_("Round %(round)s of %(last)s"), round=view["round"], last=LAST_ROUND)


def public_context(view: dict, names: dict[str, str]) -> dict:
    """What everyone may see: the table without any face-down card."""
    return _table_context(view, names, me=None)


def _table_context(view: dict, names: dict[str, str], me: str | None) -> dict:
    """`public_context` with the seats as `me` sees them (its own card marked), worked out
    once: a device's drawing worked them out twice, as Bot-Builders' did its benches."""
    return {
        "round": view["round"],
        "round_label": round_label(view),
        "phase": view["phase"],
        "phase_label": PHASE_LABELS[view["phase"]],
        "laws": laws(view),
        "laws_enforced": view["laws_enforced"],
        "seats": seats(view, names, me=me),
        "supply": view["supply"],
        "current_seat": view["current_seat"],
        "current_name": name_of(view["current_seat"], names),
        "turn_text": turn_text(view, names),
        "calls": calls(view, names),
        "scored": scored_factions(view),
        "scored_banner": scored_banner(view),
        "revealed": view["phase"] in ("reveal", "over"),
        "queries": [
            {
                "asker": name_of(q["asker"], names),
                "target": name_of(q["target"], names),
                "question": question_text(q["question"]),
            }
            for q in view["queries"]
            if q["round"] == view["round"]
        ],
    }


# -- questions --------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _example_patterns(language: str) -> list[tuple[str, re.Pattern[str], dict[str, str]]]:
    """The example questions as `language` says them, each as a pattern with the faction
    member ("an Android") it may hold, to know a question picked from the examples."""
    members = {gettext(text): faction for faction, text in A_MEMBER.items()}
    member_choice = "|".join(re.escape(text) for text in sorted(members, key=len, reverse=True))
    found = []
    for template in EXAMPLE_QUESTIONS:
        said_here = gettext(template)
        pattern = re.escape(said_here)
        pattern = pattern.replace(re.escape("{seat}"), r"(?P<seat>.+?)")
        pattern = pattern.replace(re.escape("{a_faction}"), f"(?P<a_faction>{member_choice})")
        found.append((template, re.compile(f"{pattern}$"), members))
    return found


def _known_question(question: str) -> tuple[str, dict[str, str]] | None:
    """The example question `question` is, said in English or in the viewer's language
    (the robot asks them, and a team may pick one), with the words filled in."""
    languages = dict.fromkeys([get_language(), *(code for code, _name in settings.LANGUAGES)])
    for language in languages:
        with translation.override(language):
            for template, pattern, members in _example_patterns(language):
                match = pattern.match(question)
                if match:
                    fields = match.groupdict()
                    if "a_faction" in fields:
                        fields["a_faction"] = members[fields["a_faction"]]
                    return template, fields
    return None


def _question_now(question: str) -> str:
    known = _known_question(question)
    if known is None:
        return question
    template, fields = known
    values = dict(fields)
    if "a_faction" in values:
        values["a_faction"] = gettext(A_MEMBER[values["a_faction"]])
    return gettext(template).format(**values)


_question_later = lazy(_question_now, str)


def question_text(question: str) -> Text:
    """A query's words as the team said them; an example question (the robot's, or one a team
    picked from the list) is said in the viewer's language."""
    return _question_later(question) if question else question


def suggestions(view: dict, seat: str, names: dict[str, str]) -> list[Text]:
    """The rulebook's example questions, filled in for this seat (another team's name, and one
    version per faction in play for "Am I an Android like you are?")."""
    others = [s for s in view["order"] if s != seat]
    neighbour = name_of(others[0], names) if others else _("another team")
    found: list[Text] = []
    for text in EXAMPLE_QUESTIONS:
        if "{a_faction}" in text:
            found += [
                format_lazy(said(text), a_faction=said(A_MEMBER[f])) for f in view["factions"]
            ]
        else:
            found.append(format_lazy(said(text), seat=neighbour))
    return found


# -- a seat's device --------------------------------------------------------------------------


def _by_type(actions: list[dict], *kinds: str) -> list[dict]:
    return [action for action in actions if action["type"] in kinds]


def device_context(view: dict, actions: list[dict], names: dict[str, str], seat: str) -> dict:
    """A seat's device: the table as it sees it and a button for each thing it may do now."""
    context = _table_context(view, names, me=seat)
    mine = view["keys"][seat]
    offer = view["pending_offer"]
    give_label = ngettext_lazy(
        "Give my %(count)s key to %(name)s", "Give my %(count)s keys to %(name)s", "count"
    )
    gives = [
        Button(words(give_label, count=mine, name=name_of(a["to"], names)), _payload(a))
        for a in _by_type(actions, "give")
    ]
    if _by_type(actions, "keep"):
        gives.append(Button(_("Keep my keys"), _payload({"type": "keep"}), "primary"))
    answers = []
    if _by_type(actions, "accept"):
        answers = [
            Button(_("Accept the keys"), _payload({"type": "accept"}), "primary"),
            Button(_("Reject the keys"), _payload({"type": "reject"})),
        ]
    errors = _by_type(actions, "error")
    offenders = list(dict.fromkeys(a["offender"] for a in errors))
    law_ids = list(dict.fromkeys(a["law"] for a in errors))
    countable = {a["call"] for a in _by_type(actions, "counter")}
    call_rows = context["calls"]
    for row in call_rows:
        row["counter"] = None
        if row["id"] in countable:
            caller = next(c["caller"] for c in view["calls"] if c["call"] == row["id"])
            label = words(_("Error on the caller: %(name)s was wrong"), name=name_of(caller, names))
            row["counter"] = Button(label, _payload({"type": "counter", "call": row["id"]}))
    context.update(
        my_name=name_of(seat, names),
        your_turn=view["current_seat"] == seat,
        query_targets=[
            {"seat": a["target"], "name": name_of(a["target"], names)}
            for a in _by_type(actions, "query")
        ],
        question_max=QUESTION_MAX_CHARS,
        suggestions=suggestions(view, seat, names),
        give_buttons=gives,
        answer_buttons=answers,
        offer=(
            {
                "from_name": name_of(offer["from"], names),
                "keys": _keys(offer["keys"]),
                "count": offer["keys"],
            }
            if offer and offer["to"] == seat
            else None
        ),
        my_keys=mine,
        my_tokens=view["tokens"][seat],
        error_offenders=[{"seat": s, "name": name_of(s, names)} for s in offenders],
        error_laws=[
            {"id": law, "number": _law_number(law), "text": law_text(law)} for law in law_ids
        ],
        my_vp=list(view["vp"]),
        my_vp_total=sum(view["vp"]),
    )
    return context


# -- the facilitator --------------------------------------------------------------------------


def advance_label(view: dict) -> Text:
    """The facilitator's Advance button, named by what happens next."""
    phase = view["phase"]
    if phase == "setup":
        return pgettext_lazy("the teacher's button", "Wake up")
    if phase == "wake_up":
        return _("Start questions")
    if phase == "transfer":
        return _("Reveal cards")
    if phase == "reveal":
        return _("Finish game") if view["round"] >= LAST_ROUND else _("Next round")
    return _("Advance")


def facilitator_buttons(view: dict, actions: list[dict], names: dict[str, str]) -> list[Button]:
    """The teacher's own moves: Advance (named by what comes next), and a Void per live call."""
    found = {c["call"]: c for c in view["calls"]}
    buttons = []
    for action in actions:
        if action["type"] == "advance":
            buttons.insert(0, Button(advance_label(view), _payload(action), "primary"))
        elif action["type"] == "void":
            call = found[action["call"]]
            if call["kind"] == "error":
                template = _("Void %(who)s's Error call on %(offender)s")
            else:
                template = _("Void %(who)s's counter on %(offender)s")
            label = words(
                template,
                who=name_of(call["caller"], names),
                offender=name_of(call["offender"], names),
            )
            buttons.append(Button(label, _payload(action), "danger"))
    return buttons


def results_rows(results: list[dict] | None, names: dict[str, str]) -> list[dict]:
    return [
        {
            "seat": entry["seat"],
            "name": name_of(entry["seat"], names),
            "place": entry["place"],
            "score": entry["score"],
            "vp_cards": entry.get("vp_cards", []),
        }
        for entry in results or []
    ]


# -- what happened ----------------------------------------------------------------------------

PHASE_NEWS = {
    "wake_up": _("Wake up! Every robot can see the others' cards, but not its own."),
    "query": _("Questions start."),
    "transfer": _("Every team has asked: key transfers start."),
    "reveal": _("Reveal! All cards are face up."),
}


def narrate(event: dict, names: dict[str, str]) -> Text | None:
    """One event in plain words, or None for events the screen already shows another way."""
    kind = event.get("type")
    if kind == "round":
        new = event.get("new_laws") or []
        if not new:
            return words(_("Round %(round)s begins."), round=event["round"])
        if len(new) == 1:
            return words(_("Round %(round)s begins with a new law."), round=event["round"])
        return words(
            _("Round %(round)s begins with %(count)s new laws."),
            round=event["round"],
            count=len(new),
        )
    if kind == "phase":
        return PHASE_NEWS.get(event["phase"])
    if kind == "query":
        asker, target = name_of(event["asker"], names), name_of(event["target"], names)
        if event.get("question"):
            return words(
                _("%(asker)s asked %(target)s: “%(question)s”"),
                asker=asker,
                target=target,
                question=question_text(event["question"]),
            )
        return words(_("%(asker)s asked %(target)s."), asker=asker, target=target)
    if kind == "offer":
        return words(
            ngettext_lazy(
                "%(giver)s offers %(count)s key to %(to)s.",
                "%(giver)s offers %(count)s keys to %(to)s.",
                "count",
            ),
            giver=name_of(event["from"], names),
            count=event["keys"],
            to=name_of(event["to"], names),
        )
    if kind == "keep":
        return words(_("%(name)s kept their keys."), name=name_of(event["seat"], names))
    if kind in ("accept", "reject"):
        if kind == "accept":
            template = _("%(to)s accepted the keys of %(giver)s.")
        else:
            template = _("%(to)s rejected the keys of %(giver)s.")
        return words(template, to=name_of(event["to"], names), giver=name_of(event["from"], names))
    if kind == "error":
        return words(
            _("Error! %(caller)s says %(offender)s broke the law: %(law)s"),
            caller=name_of(event["caller"], names),
            offender=name_of(event["offender"], names),
            law=law_text(event["law"]),
        )
    if kind == "counter":
        return words(
            _("Error on the caller! %(caller)s says %(offender)s was wrong."),
            caller=name_of(event["caller"], names),
            offender=name_of(event["offender"], names),
        )
    if kind == "void":
        return _("The teacher voided a call.")
    if kind == "score":
        if not event["scored"]:
            return NOBODY_SCORED
        return _factions_sentence(SCORED_LINE, event["scored"])
    if kind == "game_over":
        return _("The game is over!")
    return None


def narrate_moves(moves: list, names: dict[str, str]) -> list[Text]:
    """The lines for `moves` (newest first), newest line first."""
    return display.narrate_moves(moves, names, narrate)


def status_line(view: dict) -> Text:
    """Round and phase in a few words, for the teacher's dashboard."""
    return format_lazy("{} · {}", round_label(view), PHASE_LABELS[view["phase"]])
