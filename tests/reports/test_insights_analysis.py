"""The insights analysis on its own (no database): blanks grouped by the card they name in
either language, misconceptions counted once per team, "teach next" from its stated rules, and
3 Laws calls judged the way the engine settled them."""

from games.engines.three_laws import FACILITATOR
from games.teachback.screens import in_language
from reports.insights.blanks import group_blanks
from reports.insights.misconceptions import (
    NO_PURPOSE,
    NOT_ON_BENCH,
    WRONG_CATEGORY,
    find_misconceptions,
)
from reports.insights.sentences import Reader
from reports.insights.teach_next import CRITERION, LAW, MISCONCEPTION, CriterionLevels, teach_next
from reports.insights.three_laws import GameCalls, read_calls
from tests.reports.insights_world import play_three_laws, sentence

BENCH_WITHOUT_POWER = {
    "sense": "camera",
    "think": "loop_chip",
    "act": "drive_wheels",
    "power": None,
    "mission": "rescue_rover",
}


def reader() -> Reader:
    return Reader(in_language)


def test_part_blank_groups_by_card_in_either_language_accents_ignored():
    sentences = [
        sentence(1, senses="Cámara"),
        sentence(2, senses="camara", language="es"),
        sentence(3, senses="the camera"),
        sentence(4, senses="Ruedas motrices", language="es"),
        sentence(5, senses="drive wheels"),
        sentence(6, senses="robot eyes"),
        sentence(7, senses="Robot Eyes"),
    ]
    senses = group_blanks(sentences, reader())[0]
    assert senses.blank == "senses_with" and senses.wanted == "sense"
    groups = {g.key: g for g in senses.groups}
    assert groups["card:camera"].count == 3 and groups["card:camera"].right is True
    assert groups["card:drive_wheels"].count == 2
    assert groups["card:drive_wheels"].right is False
    assert groups["card:drive_wheels"].category == "act"
    eyes = groups["words:robot eye"]
    assert eyes.count == 2 and eyes.right is None and eyes.label == "robot eyes"
    assert [s.team for s in eyes.sentences] == ["Team 6", "Team 7"]
    assert senses.total == 7 and senses.wrong == 2
    assert [g.count for g in senses.groups] == sorted(
        (g.count for g in senses.groups), reverse=True
    )


def test_several_cards_of_one_kind_name_only_the_kind():
    (senses, *_) = group_blanks([sentence(1, senses="a sensor")], reader())
    (group,) = senses.groups
    assert group.key == "kind:sense" and group.card is None and group.right is True


def test_misconceptions_are_counted_per_team_with_the_cards_behind_them():
    sentences = [
        sentence(1, senses="drive wheels"),
        sentence(2, senses="Drive wheels"),
        sentence(3, senses="ruedas motrices", language="es"),
        sentence(4, senses="drive wheels"),
        sentence(5, senses="propeller"),
        sentence(6, senses="Hélice", language="es"),
        sentence(7, because="it is blue"),
        sentence(8, because="es muy bonito", language="es"),
        sentence(9, powered="solar panel"),
        sentence(10, powered="solar panel", acts="gripper claw"),
        sentence(11, bench={**BENCH_WITHOUT_POWER}, powered="wind turbine"),
        sentence(12),
        sentence(13),
        sentence(14),
        sentence(15),
    ]
    found = {m.key: m for m in find_misconceptions(sentences, reader())}
    act_in_sense = found[f"{WRONG_CATEGORY}:senses_with:act"]
    assert act_in_sense.count == 6 and act_in_sense.of == 15
    assert [(card.name, n) for card, n in act_in_sense.card_counts] == [
        ("Drive wheels", 4),
        ("Propeller", 2),
    ]
    assert found[f"{NO_PURPOSE}:because:"].count == 2
    # A wished-for part in an empty slot is what the frame asks for: not counted.
    not_on_bench = found[f"{NOT_ON_BENCH}::"]
    assert not_on_bench.count == 2
    assert [s.team for s in not_on_bench.sentences] == ["Team 9", "Team 10"]
    assert set(found) == {
        f"{WRONG_CATEGORY}:senses_with:act",
        f"{NO_PURPOSE}:because:",
        f"{NOT_ON_BENCH}::",
    }


def test_teach_next_keeps_patterns_of_two_teams_and_a_fifth_largest_share_first():
    sentences = [sentence(n, senses="drive wheels") for n in range(1, 5)]
    sentences += [sentence(5, because="blue")]
    sentences += [sentence(n) for n in range(6, 11)]
    misconceptions = find_misconceptions(sentences, reader())
    criteria = [
        CriterionLevels(
            "Mission link", tuple((f"Team {n}", 0.0 if n < 4 else 1.0) for n in range(1, 11))
        ),
        CriterionLevels("Complete", tuple((f"Team {n}", 1.0) for n in range(1, 11))),
    ]
    suggestions = teach_next(misconceptions, criteria)
    assert [s.source for s in suggestions] == [MISCONCEPTION, CRITERION]
    assert suggestions[0].count == 4 and suggestions[0].teams[:2] == ["Team 1", "Team 2"]
    assert suggestions[1].criterion.label == "Mission link" and suggestions[1].count == 3
    # One team's missing purpose is below the two-team floor.
    assert all(s.misconception is None or s.misconception.kind != NO_PURPOSE for s in suggestions)


def _called(game_script):
    seats = ["team-1", "team-2", "team-3", "team-4"]
    game = play_three_laws(seats, 7, game_script)
    names = {seat: f"Team {seat[-1]}" for seat in seats}
    return read_calls([GameCalls(1, "Oct 8", 1, names, game.view(None)["calls"])])


def test_error_calls_are_right_when_they_stand_and_wrong_when_countered_or_voided():
    def script(game, law):
        return [
            ("team-1", {"type": "error", "offender": "team-2", "law": law}),  # c1 stands
            ("team-3", {"type": "error", "offender": "team-4", "law": law}),  # c2 countered
            ("team-4", {"type": "counter", "call": "c2"}),  # c3 stands
            ("team-2", {"type": "error", "offender": "team-1", "law": law}),  # c4 voided
            (FACILITATOR, {"type": "void", "call": "c4"}),
            ("team-1", {"type": "error", "offender": "team-3", "law": law}),  # c5, countered...
            ("team-3", {"type": "counter", "call": "c5"}),  # c6 voided: c5 stands again
            (FACILITATOR, {"type": "void", "call": "c6"}),
        ]

    evidence = _called(script)
    assert [(c.id, c.right) for c in evidence.errors] == [
        ("c1", True),
        ("c2", False),
        ("c4", False),
        ("c5", True),
    ]
    assert evidence.errors_right == 2 and evidence.errors_wrong == 2 and evidence.counters == 2
    teams = {t.team: t for t in evidence.teams}
    assert (teams["Team 1"].errors_right, teams["Team 1"].errors_wrong) == (2, 0)
    assert (teams["Team 3"].errors_wrong, teams["Team 3"].counters_wrong) == (1, 1)
    assert (teams["Team 4"].counters_right, len(teams["Team 2"].broke)) == (1, 1)
    (law,) = evidence.laws
    assert (law.broken, law.wrong) == (2, 2)
    assert evidence.most_broken == [law] and evidence.most_misunderstood == [law]
    assert law.wrong_callers == ["Team 3", "Team 2"]
    suggestions = teach_next([], [], evidence.laws)
    assert [(s.source, s.count, s.of) for s in suggestions] == [(LAW, 2, 4)]
