import pytest

from games.engines import IllegalAction

from .three_laws_helpers import SEATS, F, game4, to_query


def test_legal_queries_list_every_other_seat_with_empty_question():
    game = to_query(game4())
    assert game.legal_actions("ann") == [
        {"type": "query", "target": seat, "question": ""} for seat in ["ben", "cat", "dan"]
    ]
    assert game.legal_actions("ben") == []


def test_each_seat_queries_once_in_order_from_start_player():
    game = to_query(game4(start_seat="cat"))
    askers = []
    while game.phase == "query":
        askers.append(game.current_seat)
        game.apply(
            game.current_seat,
            {
                "type": "query",
                "target": "ann" if game.current_seat != "ann" else "ben",
                "question": "Hi",
            },
        )
    assert askers == ["cat", "dan", "ann", "ben"]


def test_query_question_is_stripped_and_logged():
    game = to_query(game4())
    (event,) = game.apply("ann", {"type": "query", "target": "cat", "question": "  Am I tall? "})
    assert event == {
        "type": "query",
        "round": 1,
        "asker": "ann",
        "target": "cat",
        "question": "Am I tall?",
    }
    assert game.view("dan")["queries"] == [
        {"round": 1, "asker": "ann", "target": "cat", "question": "Am I tall?"}
    ]


def test_query_accepts_280_characters_but_not_more():
    game = to_query(game4())
    with pytest.raises(IllegalAction, match="too long"):
        game.apply("ann", {"type": "query", "target": "ben", "question": "x" * 281})
    assert game.queries == []
    game.apply("ann", {"type": "query", "target": "ben", "question": "x" * 280})


def test_query_out_of_turn_says_whose_turn_it_is():
    game = to_query(game4())
    with pytest.raises(IllegalAction, match="It is ann's turn to ask a question."):
        game.apply("ben", {"type": "query", "target": "cat", "question": ""})


@pytest.mark.parametrize(
    "action",
    [
        {"type": "query", "target": "ann", "question": ""},
        {"type": "query", "target": "zed", "question": ""},
        {"type": "query", "question": ""},
        {"type": "query", "target": "ben", "question": 7},
        {"type": "query", "target": "ben", "question": "", "extra": 1},
        {"type": "query", "target": ["ben"], "question": ""},
    ],
)
def test_bad_queries_are_rejected_without_change(action):
    game = to_query(game4())
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        game.apply("ann", action)
    assert game.to_dict() == before


def test_facilitator_and_setup_phase_cannot_query():
    game = game4()
    with pytest.raises(IllegalAction, match="Query phase"):
        game.apply("ann", {"type": "query", "target": "ben", "question": ""})
    to_query(game)
    with pytest.raises(IllegalAction, match="facilitator"):
        game.apply(F, {"type": "query", "target": "ben", "question": ""})


def test_question_may_be_left_out():
    game = to_query(game4())
    game.apply("ann", {"type": "query", "target": "ben"})
    assert game.queries[0]["question"] == ""
    assert set(SEATS) >= {game.queries[0]["asker"]}
