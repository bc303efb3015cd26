"""The tool's hints on a teach-back sentence: each rule flags what it should and nothing else."""

import pytest

from games.teachback.hints import (
    because_hints,
    blank_hints,
    cards_named_in,
    category_hints,
    hints_for,
    mission_words,
)

FULL = {
    "senses_with": "a camera that spots people",
    "thinks_with": "an if/then board",
    "acts_with": "drive wheels and a gripper claw",
    "powered_by": "a battery pack",
    "because": "it finds people trapped after a storm",
}


def codes(hints):
    return [(hint.field, hint.code) for hint in hints]


def test_a_complete_sensible_sentence_has_no_hints():
    assert hints_for(FULL, "rescue_rover") == []


@pytest.mark.parametrize(
    "field", ["senses_with", "thinks_with", "acts_with", "powered_by", "because"]
)
def test_an_empty_blank_is_flagged(field):
    assert codes(blank_hints({**FULL, field: "   "})) == [(field, "empty")]


@pytest.mark.parametrize("field", ["senses_with", "thinks_with", "acts_with", "powered_by"])
def test_a_one_word_part_blank_is_flagged(field):
    assert codes(blank_hints({**FULL, field: "stuff"})) == [(field, "one_word")]


def test_a_one_word_because_is_flagged():
    assert codes(blank_hints({**FULL, "because": "cool!"})) == [("because", "one_word")]


def test_a_one_word_card_name_is_a_full_answer_not_a_one_word_blank():
    assert blank_hints({**FULL, "senses_with": "Camera", "acts_with": "speaker"}) == []


def test_two_words_are_not_a_one_word_blank():
    assert blank_hints({**FULL, "thinks_with": "tiny brain"}) == []


def test_a_blank_naming_a_card_of_another_category_is_flagged_with_the_card():
    hints = category_hints({**FULL, "senses_with": "Drive wheels"})
    assert codes(hints) == [("senses_with", "other_category")]
    assert "Drive wheels is an Act part, not a Sense part" in hints[0].message


def test_card_names_match_whatever_the_case():
    assert [c.id for c in cards_named_in("DRIVE WHEELS", category="sense")] == ["drive_wheels"]


def test_a_partial_card_name_matches_including_singular_and_plural():
    assert [c.id for c in cards_named_in("big wheels", category="sense")] == ["drive_wheels"]
    assert [c.id for c in cards_named_in("one wheel", category="power")] == ["drive_wheels"]
    assert [c.id for c in cards_named_in("solar panels", category="act")] == ["solar_panel"]


def test_a_card_of_the_right_category_is_not_flagged():
    assert category_hints({**FULL, "acts_with": "Drive wheels", "powered_by": "Solar panel"}) == []


def test_ordinary_words_of_card_names_alone_are_not_flagged():
    # "hand" (Hand crank), "robot" (Robot arm), "line" (Line sensor) are everyday words.
    assert category_hints({**FULL, "acts_with": "its hand", "thinks_with": "a robot brain"}) == []
    assert category_hints({**FULL, "powered_by": "a line of batteries"}) == []


def test_a_mission_or_glitch_named_in_full_in_a_part_blank_is_flagged():
    assert codes(category_hints({**FULL, "thinks_with": "Maze runner"})) == [
        ("thinks_with", "other_category")
    ]
    assert codes(category_hints({**FULL, "acts_with": "a flat tire"})) == [
        ("acts_with", "other_category")
    ]


def test_a_word_shared_with_a_glitch_name_does_not_flag_the_right_part():
    # "battery" is in "Dead battery" (a Glitch) but means the Battery pack here.
    assert category_hints({**FULL, "powered_by": "a big battery"}) == []


def test_a_because_naming_the_mission_is_fine():
    assert because_hints("our rescue rover is the best", "rescue_rover") == []


def test_a_because_using_words_of_the_mission_text_is_fine():
    assert because_hints("it waters the plants", "garden_helper") == []
    assert because_hints("storms are scary", "rescue_rover") == []


def test_a_because_with_a_purpose_word_is_fine_even_without_the_mission():
    assert because_hints("so it never gets lost", "rescue_rover") == []
    assert because_hints("it can go anywhere", None) == []
    assert because_hints("it helps people", "beach_cleaner") == []


def test_a_because_with_neither_mission_nor_purpose_is_flagged_naming_the_mission():
    hints = because_hints("it is blue and shiny", "garden_helper")
    assert codes(hints) == [("because", "no_purpose")]
    assert "Garden helper" in hints[0].message


def test_a_because_about_another_mission_is_flagged():
    assert codes(because_hints("it waters plants", "space_explorer")) == [("because", "no_purpose")]


def test_without_a_mission_only_purpose_words_count():
    assert codes(because_hints("it is blue", None)) == [("because", "no_purpose")]
    assert mission_words(None) == set()
    assert mission_words("camera") == set()


def test_an_empty_because_gets_only_the_empty_hint():
    assert codes(hints_for({**FULL, "because": ""}, "rescue_rover")) == [("because", "empty")]


def test_hints_come_in_the_order_of_the_blanks():
    sentence = {**FULL, "because": "blue", "senses_with": "Drive wheels", "acts_with": ""}
    assert [h.field for h in hints_for(sentence, "rescue_rover")] == [
        "senses_with",
        "acts_with",
        "because",
        "because",
    ]
