"""The rules core's shortcuts give the answers of the plain computation (issue 11)."""

from __future__ import annotations

import copy
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
    assert (st.wei_kinds, st.peng_kinds) == ((13,), ())
    t.upgrade_meld(wei, GroupKind.TI, 13, 7)  # the 偎 grows into a 提: 12 huxi, a four
    assert (st.table_huxi, st.fours, st.meld_pairs()) == (12, 1, ((GroupKind.TI, (13,) * 4),))
    assert (st.wei_kinds, st.peng_kinds) == ((), ())
    assert st.held == 20 + 4
    st.melds = [Meld(GroupKind.PENG, (3, 3, 3), 5)]  # assigned: the sums follow too
    assert (st.table_huxi, st.fours, st.meld_pairs()) == (1, 0, ((GroupKind.PENG, (3,) * 3),))
    assert (st.wei_kinds, st.peng_kinds) == ((), (3,))
    t.add_meld(1, Meld(GroupKind.CHOU_WEI, (4, 4, 4), 9))
    assert (st.wei_kinds, st.peng_kinds) == ((4,), (3,))
    assert (st.table_huxi, st.fours, st.meld_cards) == (1 + 3, 0, 6)
    assert t.seats[0].table_huxi == 0 and t.seats[2].meld_pairs() == ()


@pytest.mark.parametrize("min_huxi", [0, 10, 15, 30])
def test_win_check_and_reaches_are_best_huxi_at_least_min_huxi(min_huxi: int) -> None:
    rng = random.Random(f"win_check/{min_huxi}")
    wins = 0
    for i in range(4000):
        melds, hand, card = random_win(rng) if i % 2 else random_holding(rng)
        check = arrangements.WinCheck(tuple(melds), tuple(hand))
        again = arrangements.WinCheck.on_table(  # a seat's kept table summary
            arrangements.table_summary(tuple(melds)), tuple(hand))
        assert arrangements.reaches(melds, hand, None, min_huxi) is \
            (arrangements.best_huxi(melds, hand, None) >= min_huxi)
        for k in ([card] if card is not None else []) + [rng.randrange(NUM_KINDS)]:
            want = arrangements.best_huxi(melds, hand, k) >= min_huxi
            wins += want
            assert check.wins(k, min_huxi) is want, (melds, hand, k)
            assert again.wins(k, min_huxi) is want
            assert arrangements.reaches(melds, hand, k, min_huxi) is want
    assert wins > 50  # wins are exercised, not only pruned holdings


def _plain_hand_info(hand: tuple[int, ...]) -> tuple[int, int, int, int, int] | None:
    """The hand summary written the plain way (the reference of ``_hand_info``)."""
    if len(hand) != NUM_KINDS or min(hand) < 0 or max(hand) > 4:
        return None
    groups = huxi = fours = free = free_n = 0
    for k, n in enumerate(hand):
        if n == 3:
            groups, huxi = groups + 1, huxi + arrangements._KAN[k]
        elif n == 4:
            groups, huxi, fours = groups + 1, huxi + arrangements._TI[k], fours + 1
        else:
            free += n << (3 * k)
            free_n += n
    return groups, huxi, fours, free, free_n


def test_hand_summary_packs_and_validates_like_the_plain_loop() -> None:
    rng = random.Random("hand_info")
    odd = (-1, 5, 7, 8, 255, 256, 300)
    for _ in range(30000):
        size = NUM_KINDS if rng.random() < 0.97 else rng.choice((19, 21))
        hand = tuple(rng.choice(odd) if rng.random() < 0.03 else rng.choice((0, 0, 1, 1, 2, 3, 4))
                     for _ in range(size))
        assert arrangements._hand_info(hand) == _plain_hand_info(hand), hand


def test_a_seats_win_check_follows_its_hand_and_melds() -> None:
    t = _table()
    st = t.seats[1]
    st.hand = [0] * NUM_KINDS
    for k in (0, 1, 2, 3, 4, 5, 11, 12, 13, 15, 15, 15, 16, 17, 18, 9, 9, 19, 19):
        st.hand[k] += 1
    first = st.win_check()
    assert st.win_check() is first  # same holdings: the same summary
    assert first.wins(10, 0) is (arrangements.best_huxi(st.meld_pairs(), st.hand, 10) >= 0)
    st.hand[19] -= 1
    st.hand[10] += 1
    changed = st.win_check()
    assert changed is not first and changed.hand == tuple(st.hand)
    t.add_meld(1, Meld(GroupKind.PENG, (7, 7, 7), 4))
    melded = st.win_check()
    assert melded is not changed
    for k in range(NUM_KINDS):
        assert melded.wins(k, 10) is \
            (arrangements.best_huxi(st.meld_pairs(), st.hand, k) >= 10)


def test_table_plus_is_the_summary_of_the_melds_with_one_more() -> None:
    rng = random.Random("table_plus")
    kinds = (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOU_WEI, GroupKind.TI, GroupKind.PAO,
             GroupKind.CHI, GroupKind.BI, GroupKind.KAN)
    invalid = 0
    for _ in range(3000):
        melds: list[tuple[GroupKind, tuple[int, ...]]] = []
        t = arrangements.table_summary(())
        for _step in range(rng.randrange(1, 10)):  # up to 9 melds: more than a win holds
            kind = rng.choice(kinds)
            k = rng.randrange(NUM_KINDS)
            if kind in (GroupKind.CHI, GroupKind.BI):
                cards = rng.choice([(k, k, k), (k, (k + 1) % NUM_KINDS, (k + 2) % NUM_KINDS),
                                    (k % 10, k % 10 + 10, k % 10)])
            else:
                cards = (k,) * (4 if kind in (GroupKind.TI, GroupKind.PAO) else 3)
            melds.append((kind, cards))
            t = arrangements.table_plus(t, kind, cards)
            want = arrangements.table_summary(tuple(melds))
            assert t == want, melds
            invalid += want is None
    assert invalid > 100  # too many melds, a fifth copy and bad shapes are exercised


_SHAPES: tuple[tuple[int, ...], ...] = tuple(
    [(k, k + 1, k + 2) for k in range(NUM_KINDS) if k % 10 <= 7]
    + [(k, k + 5, k + 8) for k in (1, 11)]
    + [g for k in range(10) for g in ((k, k, k + 10), (k, k + 10, k + 10))]
)


def _near_split(rng: random.Random) -> tuple[list[int], bool]:
    """Free cards one card short of a split, now and then disturbed."""
    counts = [0] * NUM_KINDS
    pair = rng.random() < 0.5
    for _ in range(rng.randint(1, 6)):
        for c in rng.choice(_SHAPES):
            counts[c] += 1
    if pair:
        counts[rng.randrange(NUM_KINDS)] += 2
    held = [k for k in range(NUM_KINDS) if counts[k]]
    counts[rng.choice(held)] -= 1
    for _ in range(rng.choice((0, 0, 1, 2))):
        k = rng.randrange(NUM_KINDS)
        counts[k] += counts[k] < 3
        k = rng.randrange(NUM_KINDS)
        counts[k] -= counts[k] > 0
    return counts, pair


def test_ting_is_the_kinds_that_complete_a_split() -> None:
    rng = random.Random("ting")
    completed = 0
    for i in range(6000):
        counts, pair = _near_split(rng)
        if max(counts) > 3:
            continue
        if i % 3 == 0:
            arrangements.clear_caches()
        x = sum(n << (3 * k) for k, n in enumerate(counts))
        want = 0
        for c in range(NUM_KINDS):
            if counts[c] < 4 and arrangements._split(x + (1 << (3 * c)), pair) >= 0:
                want |= 1 << c
        fits = sum(1 << c for c in range(NUM_KINDS) if counts[c] < 4)
        assert arrangements._ting(x, pair) & fits == want, (counts, pair)
        completed += bin(want).count("1")
    assert completed > 3000  # most near-splits have kinds that complete them


@pytest.mark.parametrize("min_huxi", [0, 10, 15, 21])
def test_wins_of_many_cards_answers_as_wins(min_huxi: int) -> None:
    rng = random.Random(f"wins_of_many/{min_huxi}")
    wins = 0
    for i in range(3000):
        melds, hand, card = random_win(rng) if i % 2 else random_holding(rng)
        check = arrangements.WinCheck(melds, tuple(hand))
        for k in range(NUM_KINDS):
            want = arrangements.best_huxi(melds, hand, k) >= min_huxi
            wins += want
            assert check.wins(k, min_huxi, many=True) is want, (melds, hand, k)
    assert wins > 100


@pytest.mark.parametrize("min_huxi", [0, 10, 15, 21])
def test_win_bits_are_the_wins_of_each_kind(min_huxi: int) -> None:
    """``WinCheck.win_bits`` answers a set of kinds at once and keeps the answers: asked
    first about some kinds, then about all, it must give ``best_huxi >= min_huxi`` for
    each, and forget them when asked at another ``min_huxi``."""
    rng = random.Random(f"win_bits/{min_huxi}")
    wins = 0
    for i in range(3000):
        melds, hand, card = random_win(rng) if i % 2 else random_holding(rng)
        check = arrangements.WinCheck(melds, tuple(hand))
        want = sum(1 << k for k in range(NUM_KINDS)
                   if arrangements.best_huxi(melds, hand, k) >= min_huxi)
        some = rng.getrandbits(NUM_KINDS)
        assert check.win_bits(some, min_huxi) == want & some, (melds, hand, some)
        assert check.win_bits((1 << NUM_KINDS) - 1, min_huxi) == want, (melds, hand)
        wins += bin(want).count("1")
        other = sum(1 << k for k in range(NUM_KINDS)
                    if arrangements.best_huxi(melds, hand, k) >= min_huxi + 7)
        assert check.win_bits((1 << NUM_KINDS) - 1, min_huxi + 7) == other, (melds, hand)
    assert wins > 100


def test_a_copied_win_check_answers_as_the_original() -> None:
    """``State.clone`` deep-copies the seats and their kept ``WinCheck``: a copy must
    answer the same (it keeps the placements' pair flags, never the shared memos)."""
    rng = random.Random("win_check_copy")
    fours = 0
    for i in range(1500):
        melds, hand, card = random_win(rng) if i % 2 else random_holding(rng)
        check = arrangements.WinCheck(melds, tuple(hand))
        copied = copy.deepcopy(check)
        fours += any(kind in (GroupKind.TI, GroupKind.PAO) for kind, _ in melds)
        arrangements.clear_caches()  # the copy's searches miss the memos
        for k in range(NUM_KINDS):
            want = arrangements.best_huxi(melds, hand, k) >= 10
            assert copied.wins(k, 10) is want, (melds, hand, k)
    assert fours > 100  # holdings whose split owes the pair are exercised


def test_chi_on_packed_free_cards_answers_as_can_chi() -> None:
    """``chi.can_chi_packed`` remembers ``can_chi`` on the digits of the kinds it reads:
    a kind left out of those digits would make two hands that differ there share an
    answer. The hands are asked twice, the second time with every answer remembered; a
    hand holding three or four of the card, or given no packed cards, is asked plainly."""
    from replay.chi import can_chi, can_chi_packed, clear_chi_cache

    rng = random.Random("can_chi_packed")
    cases = []
    for i in range(30000):
        hand = [0] * NUM_KINDS
        for k in rng.sample(range(NUM_KINDS), rng.randrange(2, 12)):
            hand[k] = rng.choice((1, 1, 2, 2, 3, 4)) if i % 3 else rng.randrange(1, 3)
        card = rng.randrange(NUM_KINDS)
        free = arrangements.WinCheck((), tuple(hand)).free
        assert free >= 0
        cases.append((hand, free, card, can_chi(hand, card)))
        if i % 5 == 0:  # no packed cards: the plain ask
            cases.append((hand, -1, card, cases[-1][3]))
    clear_chi_cache()
    for _ in range(2):
        for hand, free, card, want in cases:
            assert can_chi_packed(hand, free, card) is want, (hand, card)
    yes = sum(want for *_, want in cases)
    assert 5000 < yes < len(cases) - 5000  # both answers are exercised
