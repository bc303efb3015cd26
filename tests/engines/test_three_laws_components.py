from collections import Counter

from games.engines import three_laws as tl
from games.engines.three_laws import components as c


def test_twelve_laws_with_contract_ids():
    assert list(tl.LAWS) == [f"law_{i:02d}" for i in range(1, 13)]
    assert tl.LAWS["law_08"] == "No laughing."


def test_factions_and_facilitator_names():
    assert tl.FACTIONS == ("androids", "cyborgs", "drones")
    assert tl.FACILITATOR == "facilitator"


def test_vp_deck_has_24_ones_20_twos_16_threes():
    assert Counter(c.vp_deck()) == {1: 24, 2: 20, 3: 16}


def test_faction_deck_sizes_follow_player_count():
    assert (c.faction_count(4), c.max_rank(4)) == (2, 4)
    assert (c.faction_count(5), c.max_rank(5)) == (3, 4)
    assert (c.faction_count(6), c.max_rank(6)) == (3, 4)
    assert (c.faction_count(7), c.max_rank(7)) == (3, 5)
    assert (c.faction_count(8), c.max_rank(8)) == (3, 5)
    assert len(c.faction_deck(list(tl.FACTIONS), 5)) == 15


def test_laws_in_force_are_cumulative():
    assert c.LAWS_IN_FORCE == {1: 0, 2: 1, 3: 3, 4: 6}
