"""``arrangements.search_shapes`` against a slow, independent enumeration: every shape that
can score differently under changde (huxi, 对对, a pair, every group but the pair with
huxi) is found, so the scorer can pick the arrangement with the most points (RULES §11)."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from replay.arrangements import search_shapes
from replay.groups import FOURS, OF_ONE_KIND, GroupKind, group_huxi, is_jiao, is_sentence

G = GroupKind
Meld = tuple[GroupKind, tuple[int, ...]]
Shape = tuple[int, bool, bool, bool]  # huxi, 对对, pair, all but the pair with huxi


@cache
def _splits(cards: tuple[int, ...], pair: bool) -> frozenset[tuple[int, bool, bool]]:
    """(huxi, only the pair, every non-pair group with huxi) of every split."""
    if not cards:
        return frozenset() if pair else frozenset({(0, True, True)})
    first, rest = cards[0], cards[1:]
    out: set[tuple[int, bool, bool]] = set()
    if pair and rest and rest[0] == first:
        out |= set(_splits(rest[1:], False))
    for i, j in combinations(range(len(rest)), 2):
        a, b = rest[i], rest[j]
        if is_sentence(first, a, b) or is_jiao(first, a, b):
            left = tuple(x for n, x in enumerate(rest) if n not in (i, j))
            h = group_huxi(G.SENTENCE, (first, a, b))
            out |= {(r + h, False, xi and h > 0) for r, _, xi in _splits(left, pair)}
    return frozenset(out)


def _reference(melds: list[Meld], counts: list[int], card: int) -> set[Shape]:
    fixed = list(melds)
    free: list[int] = []
    for k in range(20):
        if counts[k] == 3:
            fixed.append((G.KAN, (k,) * 3))
        else:
            free += [k] * counts[k]
    tries = [(fixed, sorted([*free, card]))]
    for i, (kind, cards) in enumerate(fixed):
        if cards[0] == card and kind in (G.PENG, G.WEI, G.KAN):
            joined = list(fixed)
            joined[i] = (G.PAO, (*cards, card))
            tries.append((joined, free))
    if free.count(card) == 2:
        tries.append(([*fixed, (G.PENG, (card,) * 3)], [x for x in free if x != card]))
    plain = all(kind is not G.CHI for kind, _ in melds)
    out: set[Shape] = set()
    for groups, rest in tries:
        fours = sum(1 for kind, _ in groups if kind in FOURS)
        need = 7 - len(groups)
        if need < 0 or len(rest) != 3 * need - (1 if fours else 0):
            continue
        base = sum(group_huxi(kind, cards) for kind, cards in groups)
        fixed_xi = all(group_huxi(kind, cards) > 0 for kind, cards in groups)
        one_kind = plain and all(kind in OF_ONE_KIND for kind, _ in groups)
        for h, only_pair, xi in _splits(tuple(rest), fours > 0):
            out.add((base + h, one_kind and only_pair, fours > 0, fixed_xi and xi))
    return out


def _random_win(rng: random.Random) -> tuple[list[Meld], list[int], int]:
    """Seven groups, some on the table, more 坎/pairs/huxi sentences than chance gives."""
    deck = [4] * 20
    shapes: list[tuple[int, ...]] = []
    for k in range(20):
        if k % 10 <= 7:
            shapes.append((k, k + 1, k + 2))
        if k % 10 <= 9 and k < 10:
            shapes += [(k, k, k + 10), (k, k + 10, k + 10)]
    shapes += [(1, 6, 9), (11, 16, 19), (0, 1, 2), (10, 11, 12)] * 3
    while True:
        deck = [4] * 20
        melds: list[Meld] = []
        hand = [0] * 20
        ok = True
        for g in range(7):
            roll = rng.random()
            k = rng.randrange(20)
            if g < 3 and roll < 0.45:
                kind = rng.choice((G.PENG, G.WEI, G.PAO, G.CHI))
                cards = rng.choice(shapes) if kind is G.CHI else (k,) * (4 if kind is G.PAO else 3)
                target = None
            elif roll < 0.7:
                cards, kind, target = (k,) * 3, G.KAN, hand
            else:
                cards, kind, target = rng.choice(shapes), G.SENTENCE, hand
            if any(deck[c] < cards.count(c) for c in set(cards)):
                ok = False
                break
            for c in cards:
                deck[c] -= 1
            if target is None:
                melds.append((kind, tuple(cards)))
            else:
                for c in cards:
                    hand[c] += 1
        if not ok or max(hand) > 3:
            continue
        if any(kind in FOURS for kind, _ in melds):
            k = rng.randrange(20)
            if deck[k] < 2 or hand[k] + 2 > 3:
                continue
            hand[k] += 2
        pool = [c for c in range(20) for _ in range(hand[c])]
        card = rng.choice(pool)
        hand[card] -= 1
        return melds, hand, card


def test_search_shapes_finds_every_scoring_shape() -> None:
    rng = random.Random(2611)
    several = 0
    for _ in range(1500):
        melds, hand, card = _random_win(rng)
        want = _reference(melds, hand, card)
        got = search_shapes(melds, hand, card)
        shapes = set()
        for arr in got:
            pair = any(g.kind is G.PAIR for g in arr.groups)
            xi = all(g.huxi > 0 for g in arr.groups if g.kind is not G.PAIR)
            shapes.add((arr.huxi, arr.dui_dui, pair, xi))
        assert shapes == want, (melds, hand, card)
        several += len(want) > 1
    assert several >= 5  # the corpus has holdings with more than one shape
