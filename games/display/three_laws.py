"""3 Laws of Robotics on screen: faction cards, laws, keys and tokens, the Error calls, the
buttons of a seat and of the facilitator, and the narration of events.

Every function here takes an engine *view* (what one seat, or the public, may see) and the team
names; none ever sees the full state, so a seat's own card cannot reach its page before Reveal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from games import display
from games.engines import three_laws
from games.engines.three_laws.components import A_MEMBER, EXAMPLE_QUESTIONS, QUESTION_MAX_CHARS

FACTION_NAMES = {"androids": "Androids", "cyborgs": "Cyborgs", "drones": "Drones"}
PHASE_LABELS = {
    "setup": "Setup",
    "wake_up": "Wake up",
    "query": "Questions",
    "transfer": "Key transfers",
    "reveal": "Reveal",
    "over": "Game over",
}
LAST_ROUND = 4
CALL_STATUS = {"active": "stands", "countered": "countered", "voided": "voided by the teacher"}


@dataclass
class Button:
    label: str
    action: str  # JSON, posted back as is
    style: str = ""


def _payload(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def name_of(seat: str | None, names: dict[str, str]) -> str:
    if seat is None:
        return ""
    if seat == three_laws.FACILITATOR:
        return "the teacher"
    return names.get(seat, seat)


def card(raw: list | None) -> dict | None:
    """A faction card [faction, rank] as the templates draw it."""
    if not raw:
        return None
    faction, rank = raw
    return {"faction": faction, "label": FACTION_NAMES[faction], "rank": rank}


def law_text(law_id: str | None) -> str:
    return three_laws.LAWS.get(law_id or "", "")


def _law_number(law_id: str) -> int:
    return int(law_id.rsplit("_", 1)[1])


def laws(view: dict) -> list[dict]:
    return [
        {"id": law["id"], "number": _law_number(law["id"]), "text": law["text"]}
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
            text = f"{caller} called Error on {offender}"
            law = law_text(call["law"])
        else:
            text = f"{caller} called Error on the caller, {offender}"
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


def scored_factions(view: dict) -> list[str]:
    if view["scored_round"] != view["round"] or view["phase"] not in ("reveal", "over"):
        return []
    return [FACTION_NAMES[f] for f in view["scored"]]


def turn_text(view: dict, names: dict[str, str]) -> str:
    """Whose turn it is, in words everyone may read (the projector and every device)."""
    phase = view["phase"]
    current = name_of(view["current_seat"], names)
    offer = view["pending_offer"]
    if phase == "setup":
        return "Cards are dealt face down. The teacher wakes the robots up."
    if phase == "wake_up":
        return "Look at the other robots' cards. The teacher starts the questions."
    if phase == "query":
        return f"{current} asks a question"
    if phase == "transfer":
        if offer:
            giver = name_of(offer["from"], names)
            keys = _keys(offer["keys"])
            return f"{giver} offers {keys} to {current}: accept or reject?"
        if current:
            return f"{current} gives or keeps their keys"
        return "Every team has had its turn. The teacher reveals the cards."
    if phase == "reveal":
        return "Cards revealed!"
    return "The game is over."


def _keys(count: int) -> str:
    return f"{count} key" if count == 1 else f"{count} keys"


def round_label(view: dict) -> str:
    return f"Round {view['round']} of {LAST_ROUND}"


def public_context(view: dict, names: dict[str, str]) -> dict:
    """What everyone may see: the table without any face-down card."""
    return {
        "round": view["round"],
        "round_label": round_label(view),
        "phase": view["phase"],
        "phase_label": PHASE_LABELS[view["phase"]],
        "laws": laws(view),
        "laws_enforced": view["laws_enforced"],
        "seats": seats(view, names),
        "supply": view["supply"],
        "current_seat": view["current_seat"],
        "current_name": name_of(view["current_seat"], names),
        "turn_text": turn_text(view, names),
        "calls": calls(view, names),
        "scored": scored_factions(view),
        "revealed": view["phase"] in ("reveal", "over"),
        "queries": [
            {
                "asker": name_of(q["asker"], names),
                "target": name_of(q["target"], names),
                "question": q["question"],
            }
            for q in view["queries"]
            if q["round"] == view["round"]
        ],
    }


def suggestions(view: dict, seat: str, names: dict[str, str]) -> list[str]:
    """The rulebook's example questions, filled in for this seat (another team's name, and one
    version per faction in play for "Am I an Android like you are?")."""
    others = [s for s in view["order"] if s != seat]
    neighbour = name_of(others[0], names) if others else "another team"
    found = []
    for text in EXAMPLE_QUESTIONS:
        if "{a_faction}" in text:
            found += [text.format(a_faction=A_MEMBER[f]) for f in view["factions"]]
        else:
            found.append(text.format(seat=neighbour))
    return found


def _by_type(actions: list[dict], *kinds: str) -> list[dict]:
    return [action for action in actions if action["type"] in kinds]


def device_context(view: dict, actions: list[dict], names: dict[str, str], seat: str) -> dict:
    """A seat's device: the table as it sees it and a button for each thing it may do now."""
    context = public_context(view, names)
    context["seats"] = seats(view, names, me=seat)
    mine = view["keys"][seat]
    offer = view["pending_offer"]
    gives = [
        Button(f"Give my {_keys(mine)} to {name_of(a['to'], names)}", _payload(a))
        for a in _by_type(actions, "give")
    ]
    if _by_type(actions, "keep"):
        gives.append(Button("Keep my keys", _payload({"type": "keep"}), "primary"))
    answers = []
    if _by_type(actions, "accept"):
        answers = [
            Button("Accept the keys", _payload({"type": "accept"}), "primary"),
            Button("Reject the keys", _payload({"type": "reject"})),
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
            label = f"Error on the caller: {name_of(caller, names)} was wrong"
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
            {"from_name": name_of(offer["from"], names), "keys": _keys(offer["keys"])}
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


def advance_label(view: dict) -> str:
    """The facilitator's Advance button, named by what happens next."""
    phase = view["phase"]
    if phase == "setup":
        return "Wake up"
    if phase == "wake_up":
        return "Start questions"
    if phase == "transfer":
        return "Reveal cards"
    if phase == "reveal":
        return "Finish game" if view["round"] >= LAST_ROUND else "Next round"
    return "Advance"


def facilitator_buttons(view: dict, actions: list[dict], names: dict[str, str]) -> list[Button]:
    """The teacher's own moves: Advance (named by what comes next), and a Void per live call."""
    found = {c["call"]: c for c in view["calls"]}
    buttons = []
    for action in actions:
        if action["type"] == "advance":
            buttons.insert(0, Button(advance_label(view), _payload(action), "primary"))
        elif action["type"] == "void":
            call = found[action["call"]]
            who = name_of(call["caller"], names)
            what = "Error call" if call["kind"] == "error" else "counter"
            label = f"Void {who}'s {what} on {name_of(call['offender'], names)}"
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


def narrate(event: dict, names: dict[str, str]) -> str | None:
    """One event in plain words, or None for events the screen already shows another way."""
    kind = event.get("type")
    if kind == "round":
        new = event.get("new_laws") or []
        if not new:
            return f"Round {event['round']} begins."
        words = "a new law" if len(new) == 1 else f"{len(new)} new laws"
        return f"Round {event['round']} begins with {words}."
    if kind == "phase":
        return {
            "wake_up": "Wake up! Every robot can see the others' cards, but not its own.",
            "query": "Questions start.",
            "transfer": "Every team has asked: key transfers start.",
            "reveal": "Reveal! All cards are face up.",
        }.get(event["phase"])
    if kind == "query":
        text = f"{name_of(event['asker'], names)} asked {name_of(event['target'], names)}"
        return f"{text}: “{event['question']}”" if event.get("question") else f"{text}."
    if kind == "offer":
        giver, to = name_of(event["from"], names), name_of(event["to"], names)
        return f"{giver} offers {_keys(event['keys'])} to {to}."
    if kind == "keep":
        return f"{name_of(event['seat'], names)} kept their keys."
    if kind in ("accept", "reject"):
        verb = "accepted" if kind == "accept" else "rejected"
        return f"{name_of(event['to'], names)} {verb} the keys of {name_of(event['from'], names)}."
    if kind == "error":
        caller, offender = name_of(event["caller"], names), name_of(event["offender"], names)
        return f"Error! {caller} says {offender} broke the law: {law_text(event['law'])}"
    if kind == "counter":
        caller, offender = name_of(event["caller"], names), name_of(event["offender"], names)
        return f"Error on the caller! {caller} says {offender} was wrong."
    if kind == "void":
        return "The teacher voided a call."
    if kind == "score":
        scored = [FACTION_NAMES[f] for f in event["scored"]]
        if not scored:
            return "No faction scored this round."
        return f"{' and '.join(scored)} scored this round."
    if kind == "game_over":
        return "The game is over!"
    return None


def narrate_moves(moves: list, names: dict[str, str]) -> list[str]:
    """The lines for `moves` (newest first), newest line first."""
    return display.narrate_moves(moves, names, narrate)


def status_line(view: dict) -> str:
    """Round and phase in a few words, for the teacher's dashboard."""
    return f"{round_label(view)} · {PHASE_LABELS[view['phase']]}"
