"""The winning-hand search (RULES §2, §8)."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from replay.arrangements import (
    Arrangement,
    Group,
    best_huxi,
    clear_caches,
    is_ready,
    search,
)
from replay.cards import counts_of, parse_card
from replay.groups import FOURS, GroupKind, group_huxi, is_jiao, is_sentence
from replay.tools.holdings import bench_win_checks, random_holding, random_win

G = GroupKind


def hand(text: str) -> list[int]:
    return counts_of(parse_card(n) for n in text.split())


def c(name: str) -> int:
    return parse_card(name)


def meld(kind: GroupKind, text: str) -> tuple[GroupKind, tuple[int, ...]]:
    return kind, tuple(parse_card(n) for n in text.split())


def alike(kind: GroupKind, name: str) -> tuple[GroupKind, tuple[int, ...]]:
    size = 4 if kind in FOURS else 3
    return kind, (parse_card(name),) * size


def labels(melds: list[tuple[GroupKind, tuple[int, ...]]], counts: list[int], card: int | None
           ) -> list[list[str]]:
    return [[g.label() for g in a.groups] for a in search(melds, counts, card)]


# --------------------------------------------------------------------------- §2 huxi


@pytest.mark.parametrize(
    ("kind", "cards", "huxi"),
    [
        (G.PENG, "x4 x4 x4", 1),
        (G.PENG, "d4 d4 d4", 3),
        (G.WEI, "x4 x4 x4", 3),
        (G.WEI, "d4 d4 d4", 6),
        (G.CHOU_WEI, "x4 x4 x4", 3),
        (G.CHOU_WEI, "d4 d4 d4", 6),
        (G.KAN, "x4 x4 x4", 3),
        (G.KAN, "d4 d4 d4", 6),
        (G.PAO, "x4 x4 x4 x4", 6),
        (G.PAO, "d4 d4 d4 d4", 9),
        (G.TI, "x4 x4 x4 x4", 9),
        (G.TI, "d4 d4 d4 d4", 12),
        (G.SENTENCE, "x1 x2 x3", 3),
        (G.SENTENCE, "d1 d2 d3", 6),
        (G.SENTENCE, "x2 x7 x10", 3),
        (G.SENTENCE, "d2 d7 d10", 6),
        (G.CHI, "x3 x1 x2", 3),
        (G.BI, "d10 d2 d7", 6),
        (G.SENTENCE, "x2 x3 x4", 0),
        (G.SENTENCE, "d8 d9 d10", 0),
        (G.CHI, "x5 x6 x7", 0),
        (G.JIAO, "x1 x1 d1", 0),
        (G.JIAO, "x2 d2 d2", 0),
        (G.PAIR, "d10 d10", 0),
        (G.PAIR, "x1 x1", 0),
    ],
)
def test_group_huxi(kind: GroupKind, cards: str, huxi: int) -> None:
    assert group_huxi(kind, [c(n) for n in cards.split()]) == huxi


_SIX = "x1 x2 x4 x5 x6 x7 x8 x9 d6 d7 d8 d1 d2 d3 d10 d10 x10"  # x3 wins: 3 + 6 huxi


@pytest.mark.parametrize(
    ("melds", "counts", "card", "total"),
    [
        # Each table meld kind is one group with its own huxi.
        ([alike(G.PENG, "d5")], _SIX, "x3", 3 + 9),
        ([alike(G.WEI, "d5")], _SIX, "x3", 6 + 9),
        ([alike(G.CHOU_WEI, "d5")], _SIX, "x3", 6 + 9),
        ([alike(G.PENG, "x3")], _SIX.replace("x1 x2 ", "d4 d5 "), "d9", 1 + 6),
        ([meld(G.CHI, "x10 x2 x7")], _SIX, "x3", 3 + 9),
        ([meld(G.BI, "d2 d7 d10")], _SIX, "x3", 6 + 9),
        ([meld(G.CHI, "x5 x5 d5")], _SIX, "x3", 0 + 9),
        # A four on the table needs the pair (将).
        ([alike(G.TI, "d5")], "x1 x2 x4 x5 x6 x7 x8 x9 d6 d7 d8 d1 d2 d3 x10 x10", "x3", 12 + 9),
        ([alike(G.PAO, "x5")], "x1 x2 d4 d5 d6 x7 x8 x9 d7 d8 d9 d1 d2 d3 x10 x10", "x3", 6 + 9),
        ([alike(G.TI, "x5")], "x1 x2 d4 d5 d6 x7 x8 x9 d7 d8 d9 d1 d2 d3 x10 x10", "x3", 9 + 9),
        ([alike(G.PAO, "d5")], "x1 x2 x4 x5 x6 x7 x8 x9 d6 d7 d8 d1 d2 d3 x10 x10", "x3", 9 + 9),
    ],
)
def test_each_table_meld_is_one_group(
    melds: list[tuple[GroupKind, tuple[int, ...]]], counts: str, card: str, total: int
) -> None:
    assert best_huxi(melds, hand(counts), c(card)) == total


# --------------------------------------------------------------------------- §8 wins

PLAIN = "x1 x2 x4 x5 x6 x7 x8 x9 x10 x10 d1 d1 d1 d2 d4 d5 d6 d7 d10 d10"


def test_plain_seven_groups_without_a_four() -> None:
    assert best_huxi([], hand(PLAIN), c("x3")) == 15
    [arr] = search([], hand(PLAIN), c("x3"))
    assert arr.huxi == 15
    assert not arr.dui_dui
    assert [g.label() for g in arr.groups] == [
        "kan d1 d1 d1 (6)",
        "sentence x1 x2 x3 (3)",
        "sentence x4 x5 x6 (0)",
        "sentence x7 x8 x9 (0)",
        "sentence d2 d7 d10 (6)",
        "sentence d4 d5 d6 (0)",
        "jiao x10 x10 d10 (0)",
    ]
    assert len(arr.groups) == 7
    assert sum(g.huxi for g in arr.groups) == arr.huxi
    assert not any(g.from_table for g in arr.groups)


def test_a_table_ti_needs_the_pair() -> None:
    ti = [alike(G.TI, "d5")]
    rest = "x1 x2 x4 x5 x6 d1 d2 d3 x7 x8 x9 d7 d8 d9"
    assert labels(ti, hand(rest + " x10 x10"), c("x3")) == [[
        "ti d5 d5 d5 d5 (12)",
        "sentence x1 x2 x3 (3)",
        "sentence x4 x5 x6 (0)",
        "sentence x7 x8 x9 (0)",
        "sentence d1 d2 d3 (6)",
        "sentence d7 d8 d9 (0)",
        "pair x10 x10 (0)",
    ]]
    assert best_huxi(ti, hand(rest + " x10 x10"), c("x3")) == 21
    # The same holdings with a sixth sentence in place of the pair: no pair, no win.
    assert best_huxi(ti, hand(rest + " x10 d10 d10"), c("x3")) == -1
    assert search(ti, hand(rest + " x10 d10 d10"), c("x3")) == []


def test_without_a_four_a_pair_is_no_group() -> None:
    rest = "x1 x2 x4 x5 x6 d1 d2 d3 x7 x8 x9 d7 d8 d9 x10 x10"
    # 碰 + 5 sentences + pair = 7 "groups" but F = 0: not a win.
    assert best_huxi([alike(G.PENG, "d5")], hand(rest), c("x3")) == -1
    assert search([alike(G.PENG, "d5")], hand(rest), c("x3")) == []
    # The same with a 提 (F = 1) is a win.
    assert best_huxi([alike(G.TI, "d5")], hand(rest), c("x3")) == 12 + 3 + 6


def test_a_kan_is_never_split() -> None:
    five = "x7 x8 x9 d4 d5 d6 d7 d8 d9 x4 x5 x6 d1 d2 d3"
    # x1 x1 x1 x2 x3 + d1 would win as x1x2x3 + x1x1d1 only by splitting the 坎 of x1.
    assert best_huxi([], hand(five + " x1 x1 x1 x2 x3"), c("d1")) == -1
    assert search([], hand(five + " x1 x1 x1 x2 x3"), c("d1")) == []
    # The same holdings with only two x1 in hand and the third as the winning card: a win.
    assert best_huxi([], hand(five + " x1 x1 x2 x3 d1"), c("x1")) == 3 + 0 + 6
    assert labels([], hand(five + " x1 x1 x2 x3 d1"), c("x1")) == [[
        "sentence x1 x2 x3 (3)",
        "sentence x4 x5 x6 (0)",
        "sentence x7 x8 x9 (0)",
        "sentence d1 d2 d3 (6)",
        "sentence d4 d5 d6 (0)",
        "sentence d7 d8 d9 (0)",
        "jiao x1 x1 d1 (0)",
    ]]


def test_card_joins_a_table_peng_as_pao() -> None:
    melds = [meld(G.CHI, "x5 x6 x4"), alike(G.PENG, "d3")]
    counts = hand("x1 x2 x3 x7 x8 x9 d4 d5 d6 d7 d8 d9 x10 x10")
    assert best_huxi(melds, counts, c("d3")) == 0 + 9 + 3
    [arr] = search(melds, counts, c("d3"))
    assert arr.groups[0] == Group(G.CHI, (c("x5"), c("x6"), c("x4")), 0, True)
    assert arr.groups[1] == Group(G.PAO, (c("d3"),) * 4, 9, True)
    assert arr.groups[1].label() == "pao d3 d3 d3 d3 (9)"
    assert arr.groups[-1].label() == "pair x10 x10 (0)"
    # Without the pair the 跑 has no 将: no win.
    assert best_huxi(melds, hand("x1 x2 x3 x7 x8 x9 d4 d5 d6 d7 d8 d9"), c("d3")) == -1


def test_card_joins_a_kan_as_pao() -> None:
    counts = hand("x5 x5 x5 x1 x2 x3 d1 d2 d3 x7 x8 x9 d4 d5 d6 d7 d8 d9 x10 x10")
    assert best_huxi([], counts, c("x5")) == 6 + 3 + 6
    [arr] = search([], counts, c("x5"))
    assert arr.groups[0] == Group(G.PAO, (c("x5"),) * 4, 6, False)
    # Big: 跑 of d5 = 9.
    counts = hand("d5 d5 d5 x1 x2 x3 d1 d2 d3 x7 x8 x9 x4 x5 x6 d7 d8 d9 x10 x10")
    assert best_huxi([], counts, c("d5")) == 9 + 3 + 6


@pytest.mark.parametrize("kind", [G.WEI, G.CHOU_WEI])
def test_card_joins_a_table_wei_as_pao(kind: GroupKind) -> None:
    melds = [alike(kind, "x8")]
    counts = hand("x1 x2 x3 d1 d2 d3 x4 x5 x6 d4 d5 d6 d7 d8 d9 d10 d10")
    assert best_huxi(melds, counts, c("x8")) == 6 + 3 + 6
    [arr] = search(melds, counts, c("x8"))
    assert arr.groups[0] == Group(G.PAO, (c("x8"),) * 4, 6, True)


def test_card_joins_a_pair_as_peng() -> None:
    counts = hand("x5 x5 x1 x2 x3 d1 d2 d3 d4 d5 d6 d7 d8 d9 x7 x8 x9 d2 d7 d10")
    assert best_huxi([], counts, c("x5")) == 1 + 3 + 6 + 6
    [arr] = search([], counts, c("x5"))
    assert Group(G.PENG, (c("x5"),) * 3, 1, False) in arr.groups
    # Big pair: 碰 of d5 = 3.
    counts = hand("d5 d5 x1 x2 x3 d1 d2 d3 x4 x5 x6 d7 d8 d9 x7 x8 x9 d2 d7 d10")
    assert best_huxi([], counts, c("d5")) == 3 + 3 + 6 + 6


def test_the_best_of_several_splits() -> None:
    # x1 x1 d1 / x2 x2 d2 / x3 x3 d3 as three 绞 (0) or as 一二三 x2 + 壹贰叁 (3+3+6).
    counts = hand("x1 x1 d1 x2 x2 d2 x3 x3 x4 x5 x6 x7 x8 x9 d4 d5 d6 d7 d8 d9")
    assert best_huxi([], counts, c("d3")) == 12
    [arr] = search([], counts, c("d3"))
    assert arr.huxi == 12
    assert [g.label() for g in arr.groups][:3] == [
        "sentence x1 x2 x3 (3)",
        "sentence x1 x2 x3 (3)",
        "sentence x4 x5 x6 (0)",
    ]
    every = search([], counts, c("d3"), every_huxi=True)
    assert [a.huxi for a in every] == [12, 0]


def test_every_huxi_keeps_the_lower_totals() -> None:
    # 11 huxi (碰 of x5) or 10 (x5 x5 d5 绞 + x5 x6 x7): hengshan grades 10 above 11.
    melds = [alike(G.PENG, "x2")]
    counts = hand("x2 x5 x5 x6 x7 x7 x8 x8 x10 d1 d2 d3 d5 d6 d7 d8 d8")
    assert [a.huxi for a in search(melds, counts, c("x5"))] == [11]
    every = search(melds, counts, c("x5"), every_huxi=True)
    assert [a.huxi for a in every] == [11, 10]
    assert "jiao x5 x5 d5 (0)" in [g.label() for g in every[1].groups]


def test_dui_dui() -> None:
    melds = [alike(G.TI, "x4"), alike(G.PENG, "d6"), alike(G.WEI, "x8")]
    counts = hand("d1 d1 d1 x3 x3 x3 d9 d9 d9 x10")
    [arr] = search(melds, counts, c("x10"))
    assert arr.dui_dui
    assert arr.huxi == 9 + 3 + 3 + 6 + 3 + 6
    assert [g.label() for g in arr.groups] == [
        "ti x4 x4 x4 x4 (9)",
        "peng d6 d6 d6 (3)",
        "wei x8 x8 x8 (3)",
        "kan x3 x3 x3 (3)",
        "kan d1 d1 d1 (6)",
        "kan d9 d9 d9 (6)",
        "pair x10 x10 (0)",
    ]
    # A 吃 on the table spoils it.
    chi = [alike(G.TI, "x4"), meld(G.CHI, "d5 d6 d7"), alike(G.WEI, "x8")]
    [arr] = search(chi, counts, c("x10"))
    assert not arr.dui_dui
    # So does a sentence or a 绞 in hand.
    counts = hand("d1 d1 d1 x3 x3 x3 x5 x6 x7 x10")
    [arr] = search(melds, counts, c("x10"))
    assert not arr.dui_dui
    counts = hand("d1 d1 d1 x3 x3 x3 x5 x5 d5 x10")
    [arr] = search(melds, counts, c("x10"))
    assert not arr.dui_dui
    # The winning card making a 跑 or 碰 keeps it.
    counts = hand("d1 d1 d1 x3 x3 x3 d9 d9 x10 x10")
    [arr] = search(melds, counts, c("d9"))
    assert arr.dui_dui
    assert "peng d9 d9 d9 (3)" in [g.label() for g in arr.groups]


def test_card_none_after_the_winners_own_ti() -> None:
    melds = [alike(G.TI, "x5")]
    counts = hand("x1 x2 x3 d1 d2 d3 x7 x8 x9 d4 d5 d6 d7 d8 d9 x10 x10")
    assert best_huxi(melds, counts, None) == 9 + 3 + 6
    [arr] = search(melds, counts, None)
    assert arr.groups[0] == Group(G.TI, (c("x5"),) * 4, 9, True)
    # One card short: no win.
    counts[c("x10")] -= 1
    assert best_huxi(melds, counts, None) == -1


def test_wrong_card_counts_are_no_win() -> None:
    counts = hand(PLAIN)
    assert best_huxi([], counts, c("x3")) == 15
    short = list(counts)
    short[c("x9")] -= 1
    assert best_huxi([], short, c("x3")) == -1
    assert search([], short, c("x3")) == []
    extra = list(counts)
    extra[c("d8")] += 1
    assert best_huxi([], extra, c("x3")) == -1
    assert best_huxi([], counts, None) == -1  # the winning card missing
    # A fifth copy of the winning card, a count out of range, a bad meld.
    fifth = hand("x2 x2 x2 x1 x1 x3 x3 x4 x5 x6 x7 x8 x9 d4 d5 d6 d7 d8 d9 d1")
    assert best_huxi([alike(G.PENG, "x2")], fifth, c("x2")) == -1
    assert search([alike(G.PENG, "x2")], fifth, c("x2")) == []
    # Seven x2: a 碰 on the table, a 坎 in hand and the card. Would "win" if not rejected.
    seven = hand("x2 x2 x2 x4 x5 x6 x7 x8 x9 d4 d5 d6 d7 d8 d9 x10 x10")
    assert best_huxi([alike(G.PENG, "x2")], seven, c("x2")) == -1
    assert search([alike(G.PENG, "x2")], seven, c("x2")) == []
    assert best_huxi([alike(G.PENG, "x3")], seven, c("x3")) == 6 + 3
    assert best_huxi([], fifth, c("x2")) == 6  # without the 碰 it is a 跑 of the 坎
    fifth[c("x2")] = 4
    fifth[c("x1")] -= 1
    assert best_huxi([], fifth, c("x2")) == -1  # four in hand (a 提) and a fifth
    assert search([], fifth, c("x2")) == []
    assert best_huxi([], [5] + [0] * 19, c("x3")) == -1
    assert best_huxi([], counts[:19], c("x3")) == -1
    assert best_huxi([meld(G.PENG, "x1 x1 x2")], counts, c("x3")) == -1
    assert best_huxi([meld(G.CHI, "x1 x2 x4")], counts, c("x3")) == -1
    assert best_huxi([], counts, 20) == -1


def test_is_ready() -> None:
    counts = hand(PLAIN)  # waits on x3 only, for 15
    assert is_ready([], counts, 15)
    assert not is_ready([], counts, 16)
    assert [k for k in range(20) if best_huxi([], counts, k) >= 0] == [c("x3")]
    counts[c("x1")] -= 1
    counts[c("x9")] += 1
    assert not is_ready([], counts, 0)


def test_deterministic_and_sorted() -> None:
    melds = [meld(G.CHI, "x5 x6 x4"), alike(G.PENG, "d3")]
    counts = hand("x1 x2 x3 x7 x8 x9 d4 d5 d6 d7 d8 d9 x10 x10")
    first = search(melds, counts, c("d3"))
    clear_caches()
    assert search(tuple(melds), tuple(counts), c("d3")) == first
    # Table melds with cards as lists, kinds as strings: same answer.
    loose = [("chi", [c("x5"), c("x6"), c("x4")]), ("peng", [c("d3")] * 3)]
    assert search(loose, counts, c("d3")) == first  # type: ignore[arg-type]
    assert best_huxi(loose, counts, c("d3")) == first[0].huxi  # type: ignore[arg-type]
    groups = first[0].groups
    assert [g.from_table for g in groups] == [True, True] + [False] * 5
    order = list(GroupKind)
    rest = [(order.index(g.kind), g.cards) for g in groups[2:]]
    assert rest == sorted(rest)


# --------------------------------------------------------------------------- cross-check

# An independent, slow reference: tries every three-card combination with the first card.


@cache
def _ref_split(cards: tuple[int, ...], pair: bool) -> int:
    if not cards:
        return -1 if pair else 0
    first, rest = cards[0], cards[1:]
    best = -1
    if pair and rest and rest[0] == first:
        best = max(best, _ref_split(rest[1:], False))
    for i, j in combinations(range(len(rest)), 2):
        a, b = rest[i], rest[j]
        if is_sentence(first, a, b) or is_jiao(first, a, b):
            left = tuple(x for n, x in enumerate(rest) if n not in (i, j))
            r = _ref_split(left, pair)
            if r >= 0:
                best = max(best, r + group_huxi(G.SENTENCE, (first, a, b)))
    return best


def _reference(melds: list[tuple[GroupKind, tuple[int, ...]]], counts: list[int],
               card: int | None) -> int:
    total = list(counts)
    for _, cards in melds:
        for x in cards:
            total[x] += 1
    if card is not None:
        total[card] += 1
    if max(total) > 4:
        return -1
    fixed = list(melds)
    free: list[int] = []
    for k in range(20):
        if counts[k] == 3:
            fixed.append((G.KAN, (k,) * 3))
        elif counts[k] == 4:
            fixed.append((G.TI, (k,) * 4))
        else:
            free += [k] * counts[k]
    tries = []
    if card is None:
        tries.append((fixed, free))
    else:
        tries.append((fixed, sorted([*free, card])))
        for i, (kind, cards) in enumerate(fixed):
            if cards[0] == card and kind in (G.PENG, G.WEI, G.CHOU_WEI, G.KAN):
                joined = list(fixed)
                joined[i] = (G.PAO, (*cards, card))
                tries.append((joined, free))
        if free.count(card) == 2:
            tries.append(([*fixed, (G.PENG, (card,) * 3)], [x for x in free if x != card]))
    best = -1
    for groups, rest in tries:
        fours = sum(1 for kind, _ in groups if kind in FOURS)
        need = 7 - len(groups)
        if need < 0 or len(rest) != 3 * need - (1 if fours else 0):
            continue
        r = _ref_split(tuple(rest), fours > 0)
        if r >= 0:
            best = max(best, r + sum(group_huxi(kind, cards) for kind, cards in groups))
    return best


def test_matches_a_brute_force_reference() -> None:
    rng = random.Random(20240601)
    wins = 0
    for i in range(1500):
        melds, counts, card = (random_win if i % 2 else random_holding)(rng)
        if rng.random() < 0.1:
            card = None
        expected = _reference(melds, counts, card)
        assert best_huxi(melds, counts, card) == expected, (melds, counts, card)
        found = search(melds, counts, card)
        every = search(melds, counts, card, every_huxi=True)
        if expected < 0:
            assert found == [] and every == []
            continue
        wins += 1
        assert found[0].huxi == expected
        assert found[0] == every[0]
        for arr in every:
            assert isinstance(arr, Arrangement)
            assert len(arr.groups) == 7
            assert arr.huxi == sum(g.huxi for g in arr.groups)
            assert all(g.huxi == group_huxi(g.kind, g.cards) for g in arr.groups)
            held = [0] * 20
            for g in arr.groups:
                for x in g.cards:
                    held[x] += 1
            want = list(counts)
            for _, cards in melds:
                for x in cards:
                    want[x] += 1
            if card is not None:
                want[card] += 1
            assert held == want
    assert wins > 500


def test_bench_win_checks() -> None:
    out = bench_win_checks(200, 1)
    assert out["checks"] == 200
    assert 90 <= out["wins"] <= 200
    assert out["checks_per_s"] > 0
