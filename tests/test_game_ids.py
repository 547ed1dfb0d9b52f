"""The compact set of game ids a season has seen (issue 21, item 5): what a set would say, in
8 bytes an id."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from wizard_cli.sheets.game_ids import GameIds

IDS = st.one_of(st.none(), st.integers(-(2**70), 2**70), st.text(max_size=8))


@given(st.lists(IDS, max_size=300), st.lists(IDS, max_size=50))
def test_game_ids_answer_as_a_set_does(added, asked):
    ids, expected = GameIds(), set()
    for key in added:
        ids.add(key)
        expected.add(key)
    assert len(ids) == len(expected)
    for key in added + asked:
        assert (key in ids) == (key in expected)


def test_small_whole_numbers_are_told_apart():
    ids = GameIds()
    for key in (0, 1, -1, "1"):
        ids.add(key)
    assert len(ids) == 4 and -2 not in ids and 2 not in ids


def test_a_million_ids_take_a_table_not_a_set():
    ids = GameIds()
    for number in range(1_000_000):
        ids.add(f"g{number}")
    assert len(ids) == 1_000_000 and "g999999" in ids and "g1000000" not in ids
    assert ids._table.itemsize * len(ids._table) <= 32 << 20  # 8 bytes a slot, half full at most


def test_numbers_equal_to_the_table_marks_are_told_apart():
    """The empty text's mark and 0 are fingerprints of their own (hypothesis found a number
    equal to the empty text's mark counted as the empty text)."""
    ids = GameIds()
    ids.add(-0x3C6EF372FE94F82B)
    assert "" not in ids and 0 not in ids
    ids.add("")
    ids.add(0)
    assert len(ids) == 3 and -0x61C8864680B583EB not in ids


def test_runs_of_ids_are_taken_all_or_none_as_a_set_would():
    """add_new, a season lane's run of ids at once: remembered only when none is known yet,
    whether the known one is among the recent ids or placed in the table (past RECENT)."""
    from wizard_cli.sheets.game_ids import RECENT

    ids, expected = GameIds(), set()
    rng = random.Random(3)
    number = 0
    while len(expected) < RECENT + 5000:
        batch = [f"g{number + at}" for at in range(rng.randint(1, 60))]
        number += len(batch)
        if expected and rng.random() < 0.1:  # one id seen before, recently or long ago
            batch[rng.randrange(len(batch))] = rng.choice([f"g{number - 70}", "g1", 7])
        if rng.random() < 0.05:
            batch.append(rng.choice([0, "", -1]))
        batch = list(dict.fromkeys(batch))  # distinct, as add_new takes them
        taken = ids.add_new(batch)
        assert taken == expected.isdisjoint(batch)
        if taken:
            expected.update(batch)
        assert len(ids) == len(expected)
    assert ids._placed > 0  # some were placed in the table
    for key in ["g1", "g40000", 7, 0, "", "x", f"g{number}", f"g{number - 1}", -1]:
        assert (key in ids) == (key in expected)
