"""Perft: the legal-action tree of fixed deals has the pinned size (perft/perft.json).

The counts depend on the rules alone (no bots): they move only when a rule does, and
then on purpose (``python -m tests.rules.perft.counts --write``).
"""

from __future__ import annotations

import pytest

from replay.actions import legal_actions
from replay.model import EventType

from .perft.counts import DEALS, all_counts, counts, deal_state, perft, pinned

PINNED = {name: [int(n) for n in entry["counts"].values()]  # type: ignore[attr-defined]
          for name, entry in pinned().items()}


@pytest.mark.parametrize("name", sorted(DEALS))
def test_perft_counts_are_pinned(name: str) -> None:
    assert counts(name) == PINNED[name]


def test_the_data_file_describes_each_deal() -> None:
    entry = pinned()["hengshan-1"]
    assert (entry["ruleset"], entry["dealer"], entry["shuffle"]) == ("hengshan", 1, "perft/1")
    assert set(pinned()) == set(DEALS) and callable(all_counts)


def test_depth_one_is_the_dealers_discard_choices() -> None:
    # no 天胡 and no dealer's four in these deals: the dealer discards any kind it holds
    # once or twice (a 坎 is never split), or another seat lays a dealt four
    for name in DEALS:
        st = deal_state(name)
        hand = st.table.seats[st.log.dealer].hand
        fours = sum(1 for s in st.table.seats for n in s.hand if n == 4)
        assert 4 not in hand
        assert perft(st, 1) == sum(1 for n in hand if 0 < n < 3) + fours, name


def test_the_profiles_part_where_their_rules_do() -> None:
    # hengshan may win on a discard: the same deal has more leaves there, deeper down
    assert PINNED["standard-2"][:3] == PINNED["hengshan-2"][:3]
    assert PINNED["standard-2"][3] < PINNED["hengshan-2"][3]


def test_a_pass_is_not_a_move() -> None:
    st = deal_state("standard-2")
    first = [a for a in legal_actions(st)
             if a.type is EventType.DISCARD][0]
    after = st.child(first.event())
    assert perft(after, 1) == len([a for a in legal_actions(after)
                                   if a.type is not EventType.PASS])
