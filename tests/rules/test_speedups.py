"""The rules core's shortcuts give the answers of the plain computation (issue 11)."""

from __future__ import annotations

import random

import pytest

from replay import arrangements
from replay.cards import NUM_KINDS
from replay.groups import GroupKind
from replay.model import Deal
from replay.table import Meld, Table
from replay.tools.holdings import random_holding, random_win


@pytest.mark.parametrize("min_huxi", [0, 10, 15, 21, 30])
def test_wins_with_is_best_huxi_at_least_min_huxi(min_huxi: int) -> None:
    rng = random.Random(f"wins_with/{min_huxi}")
    wins = 0
    for i in range(6000):
        melds, hand, card = random_win(rng) if i % 2 else random_holding(rng)
        for k in ([card] if card is not None else []) + [rng.randrange(NUM_KINDS)]:
            want = arrangements.best_huxi(melds, hand, k) >= min_huxi
            wins += want
            assert arrangements.wins_with(melds, hand, k, min_huxi) is want, (melds, hand, k)
    assert wins > 100  # the wins are exercised, not only the pruned holdings


def test_huxi_bound_is_never_below_a_split() -> None:
    rng = random.Random("huxi_bound")
    for _ in range(20000):
        counts = [0] * NUM_KINDS
        for k in rng.sample(range(NUM_KINDS), rng.randrange(1, 8)):
            counts[k] = rng.randrange(1, 3)
        x = sum(n << (3 * k) for k, n in enumerate(counts))
        for pair in (False, True):
            assert arrangements._free_best(x, pair) <= arrangements._huxi_bound(x)


def _table() -> Table:
    hands = (tuple(range(20)) + (0,), tuple(range(20)), tuple(range(20)))
    return Table(Deal(hands, 0, (), (), ()), 0)


def test_seat_sums_follow_every_meld_change() -> None:
    t = _table()
    st = t.seats[1]
    assert (st.table_huxi, st.fours, st.meld_pairs()) == (0, 0, ())
    wei = Meld(GroupKind.WEI, (13, 13, 13), 3)
    t.add_meld(1, wei)
    assert (st.table_huxi, st.fours, st.meld_pairs()) == (6, 0, ((GroupKind.WEI, (13,) * 3),))
    t.upgrade_meld(wei, GroupKind.TI, 13, 7)  # the 偎 grows into a 提: 12 huxi, a four
    assert (st.table_huxi, st.fours, st.meld_pairs()) == (12, 1, ((GroupKind.TI, (13,) * 4),))
    assert st.held == 20 + 4
    st.melds = [Meld(GroupKind.PENG, (3, 3, 3), 5)]  # assigned: the sums follow too
    assert (st.table_huxi, st.fours, st.meld_pairs()) == (1, 0, ((GroupKind.PENG, (3,) * 3),))
    assert t.seats[0].table_huxi == 0 and t.seats[2].meld_pairs() == ()
