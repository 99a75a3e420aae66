"""吃 (chi) and 比 (bi), RULES §6.

A 吃 takes the revealed card ``c`` plus two hand cards into a sentence or 绞.
Every copy of ``c`` still in hand must then leave in 比 groups: each a sentence
or 绞 of three hand cards (no 坎 cards) holding at least one copy of ``c``.
If that cannot be done the 吃 is not allowed at all; if the log leaves a copy
in hand while it could be done, that is 烧比 (``bi_missing``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Final

from .cards import NUM_KINDS, Card, is_big, other_case, rank
from .groups import is_chi_shape

Pair = tuple[Card, Card]


@cache
def partners(card: Card) -> tuple[Pair, ...]:
    """Every pair of other cards that makes a sentence or 绞 with ``card``."""
    r, base = rank(card), (10 if is_big(card) else 0)
    out: list[Pair] = []
    for lo in (r - 2, r - 1, r):
        run = [lo, lo + 1, lo + 2]
        if lo >= 1 and lo + 2 <= 10:
            run.remove(r)
            out.append((base + run[0] - 1, base + run[1] - 1))
    if r in (2, 7, 10):
        two = [x for x in (2, 7, 10) if x != r]
        out.append((base + two[0] - 1, base + two[1] - 1))
    oc = other_case(card)
    out.append((card, oc) if card < oc else (oc, card))  # c + c + C
    out.append((oc, oc))  # c + C + C
    return tuple(out)


Need = tuple[tuple[Card, int], ...]  # (kind, count) pairs taken from the hand


def _need(cards: Sequence[Card]) -> Need:
    need: dict[Card, int] = {}
    for k in cards:
        need[k] = need.get(k, 0) + 1
    return tuple(need.items())


@cache
def _chi_needs(card: Card) -> tuple[tuple[Pair, Need], ...]:
    """For each partner pair of ``card``: what a 吃 of it takes from the hand."""
    return tuple((pair, _need(pair)) for pair in partners(card))


@cache
def _bi_needs(card: Card) -> tuple[tuple[tuple[Card, ...], Need], ...]:
    """For each 比 group holding ``card``: the group and what it takes from the hand."""
    return tuple((tuple(sorted((card,) + pair)), _need((card,) + pair))
                 for pair in partners(card))


def _usable(hand: Sequence[int], need: Need) -> bool:
    """Held, and none of them from a 坎 (three alike in hand) or a four not yet 提'd."""
    for k, n in need:
        h = hand[k]
        if h < n or h >= 3:
            return False
    return True


def _without(hand: Sequence[int], need: Need) -> list[int]:
    rest = list(hand)
    for k, n in need:
        rest[k] -= n
    return rest


def _bi_possible(hand: list[int], card: Card) -> bool:
    """Can every copy of ``card`` left in ``hand`` be laid out in 比 groups?"""
    left = hand[card]
    if left == 0:
        return True
    if left >= 3:
        return False
    for _, need in _bi_needs(card):
        if not _usable(hand, need):
            continue
        for k, n in need:
            hand[k] -= n
        possible = _bi_possible(hand, card)
        for k, n in need:
            hand[k] += n
        if possible:
            return True
    return False


def bi_options(hand: Sequence[int], card: Card) -> list[tuple[tuple[Card, ...], ...]]:
    """Every way to lay out all copies of ``card`` left in ``hand`` as 比 groups.

    ``[()]`` when none is left; ``[]`` when it cannot be done.
    """
    left = hand[card]
    if left == 0:
        return [()]
    if left >= 3:
        return []
    results: list[tuple[tuple[Card, ...], ...]] = []
    for group, need in _bi_needs(card):
        if _usable(hand, need):
            for tail in bi_options(_without(hand, need), card):
                results.append((group,) + tail)
    # one layout per multiset of groups
    return sorted({tuple(sorted(r)) for r in results})


@dataclass(frozen=True, slots=True)
class ChiOption:
    taken: tuple[Card, ...]  # the chi group: the revealed card and two hand cards, sorted
    bi: tuple[tuple[Card, ...], ...]


def chi_options(hand: Sequence[int], card: Card) -> list[ChiOption]:
    """Every legal 吃 of ``card`` (with a complete 比) from ``hand``."""
    out: list[ChiOption] = []
    for pair, need in _chi_needs(card):
        if _usable(hand, need):
            for bi in bi_options(_without(hand, need), card):
                out.append(ChiOption(tuple(sorted((card,) + pair)), bi))
    return out


@cache
def _chi_checks(card: Card) -> tuple[tuple[int, int, int, int, int, Need], ...]:
    """``_chi_needs`` flattened for ``can_chi``: ``(k1, n1, k2, n2, takes, need)``, the one
    or two kinds the 吃 takes from the hand (``k2 = -1``: one kind), how many copies of
    ``card`` it takes, and the need itself."""
    out = []
    for _, need in _chi_needs(card):
        (k1, n1), (k2, n2) = need[0], need[1] if len(need) > 1 else (-1, 0)
        out.append((k1, n1, k2, n2, sum(n for k, n in need if k == card), need))
    return tuple(out)


def can_chi(hand: Sequence[int], card: Card) -> bool:
    """Is there a legal 吃 of ``card`` (with a complete 比)? The hot path of claims."""
    left = hand[card]
    if left >= 3:
        return False
    for k1, n1, k2, n2, takes, need in _chi_checks(card):
        h = hand[k1]
        if h < n1 or h >= 3:  # not held, or from a 坎
            continue
        if k2 >= 0:
            h = hand[k2]
            if h < n2 or h >= 3:
                continue
        if left == takes or _bi_possible(_without(hand, need), card):
            return True
    return False


# --------------------------------------------------------------------------- on packed counts


def _read_kinds(card: Card) -> frozenset[Card]:
    """The kinds ``can_chi`` reads for ``card``: the card and its partners (a 比 group
    holds the card, so it is made of the same partners)."""
    return frozenset({card}.union(*partners(card)))


#: per card, the digits of the kinds ``can_chi`` reads, in counts packed three bits a
#: kind (kind ``k``'s count at bits ``3k``, as ``arrangements`` packs them)
_READ_MASK: Final = tuple(sum(7 << 3 * k for k in _read_kinds(c)) for c in range(NUM_KINDS))
#: per card: those digits -> ``can_chi``; at most 3**8 entries a card (each count is
#: 0, 1 or 2)
_PACKED: Final[tuple[dict[int, bool], ...]] = tuple({} for _ in range(NUM_KINDS))


def can_chi_packed(hand: Sequence[int], free: int, card: Card) -> bool:
    """``can_chi(hand, card)``, with ``free`` the hand's free cards packed three bits a
    kind, the kinds held three or four times left out (``arrangements.WinCheck.free``;
    -1: none packed). No 吃 or 比 takes a card of those, so for a hand holding fewer
    than three of ``card`` the answer depends only on the digits of the kinds it reads:
    it is remembered on them (a claim window and the fair-play reach ask each seat about
    many cards). Otherwise the plain ``can_chi``."""
    if free < 0 or hand[card] > 2:
        return can_chi(hand, card)
    key = free & _READ_MASK[card]
    memo = _PACKED[card]
    r = memo.get(key)
    if r is None:
        r = memo[key] = can_chi(hand, card)
    return r


def clear_chi_cache() -> None:
    for memo in _PACKED:
        memo.clear()


class ChiProblem(StrEnum):
    NOT_HELD = "not_held"  # a card the hand does not hold: physically impossible
    SHAPE = "shape"  # a group is not a sentence or 绞, or lacks the taken card
    KAN = "kan"  # uses a card of a 坎
    BI_IMPOSSIBLE = "bi_impossible"  # copies left that no 比 could lay out
    BI_MISSING = "bi_missing"  # 烧比: copies left that a 比 could have laid out


def check_chi(
    hand: Sequence[int], card: Card, groups: Sequence[Sequence[Card]]
) -> tuple[ChiProblem | None, str]:
    """Judge a logged 吃 ``groups`` (first the chi group, then 比 groups)."""
    if not groups or card not in groups[0]:
        return ChiProblem.SHAPE, "the first group must hold the taken card"
    first = list(groups[0])
    first.remove(card)
    used: dict[Card, int] = {}
    for k in first:
        used[k] = used.get(k, 0) + 1
    for g in groups[1:]:
        for k in g:
            used[k] = used.get(k, 0) + 1
    for k, n in used.items():
        if hand[k] < n:
            return ChiProblem.NOT_HELD, "the hand does not hold those cards"
    for i, g in enumerate(groups):
        if not is_chi_shape(g):
            return ChiProblem.SHAPE, f"group {i} is not a sentence or 绞"
        if i > 0 and card not in g:
            return ChiProblem.SHAPE, f"比 group {i} does not hold the taken card"
    if any(hand[k] >= 3 for k in used):
        return ChiProblem.KAN, "a 坎 is never split"
    rest = list(hand)
    for k, n in used.items():
        rest[k] -= n
    if rest[card] > 0:
        # Copies left: could any 比 have laid them all out from the hand before 比?
        before_bi = list(hand)
        for k in first:
            before_bi[k] -= 1
        if bi_options(before_bi, card):
            return ChiProblem.BI_MISSING, f"{rest[card]} copy(ies) of the taken card left in hand"
        return ChiProblem.BI_IMPOSSIBLE, "the copies left in hand cannot be laid out in 比"
    return None, ""
