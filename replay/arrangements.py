"""The winning-hand search (RULES §8): can these holdings be laid out as 7 groups, and how?

Holdings are the table melds, the hand (20 counts) and the winning card. Each table
meld is one group; every kind held three times is a 坎 (never split) and four times a
提; the rest of the hand (the "free" cards) is split into sentences, 绞 and exactly one
pair iff the holdings have a four-card group (``F >= 1``). The winning card may join a
碰/偎/臭偎 on the table or a 坎 in hand (跑), a pair in hand (碰), or go with the free
cards. The total must be exactly 7 groups.

``best_huxi`` is the hot path (called for every revealed card for every player): it
builds no objects. The free cards are packed into one int (3 bits a kind) and their best
split is memoised on it; the table melds and the hand are summarised once per distinct
value. ``search`` builds the ``Group``/``Arrangement`` objects and is meant for actual
wins and for display.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from .cards import NUM_KINDS, card_name
from .chi import clear_chi_cache
from .groups import (
    FOURS,
    GK_JIAO,
    GK_KAN,
    GK_PAIR,
    GK_SENTENCE,
    GK_TI,
    OF_ONE_KIND,
    GroupKind,
    clear_group_caches,
    group_huxi,
    is_chi_shape,
)

Meld = tuple[GroupKind, tuple[int, ...]]
# (kind, cards) of a free-card group, as produced by the splitter.
_Shape = tuple[GroupKind, tuple[int, ...]]

GROUPS_IN_A_WIN: Final = 7

_TABLE_KINDS: Final = frozenset(
    {GroupKind.TI, GroupKind.PAO, GroupKind.WEI, GroupKind.CHOU_WEI, GroupKind.PENG,
     GroupKind.CHI, GroupKind.BI}
)
_ALIKE_LEN: Final[dict[GroupKind, int]] = {
    GroupKind.TI: 4,
    GroupKind.PAO: 4,
    GroupKind.WEI: 3,
    GroupKind.CHOU_WEI: 3,
    GroupKind.PENG: 3,
}
_KIND_ORDER: Final[dict[GroupKind, int]] = {k: i for i, k in enumerate(GroupKind)}

# Packed counts: kind k occupies bits 3k..3k+2.
_UNIT: Final[tuple[int, ...]] = tuple(1 << (3 * k) for k in range(NUM_KINDS))


def _alike(kind: GroupKind, k: int) -> int:
    return group_huxi(kind, (k,))


_TI: Final = tuple(_alike(GroupKind.TI, k) for k in range(NUM_KINDS))
_PAO: Final = tuple(_alike(GroupKind.PAO, k) for k in range(NUM_KINDS))
_KAN: Final = tuple(_alike(GroupKind.KAN, k) for k in range(NUM_KINDS))
_PENG: Final = tuple(_alike(GroupKind.PENG, k) for k in range(NUM_KINDS))
_WEI: Final = tuple(_alike(GroupKind.WEI, k) for k in range(NUM_KINDS))
# Huxi of the run k, k+1, k+2 (k the lowest) and of 2-7-10 (k the 2 of its case).
_RUN: Final = tuple(
    group_huxi(GroupKind.SENTENCE, (k, k + 1, k + 2)) if k % 10 <= 7 else 0
    for k in range(NUM_KINDS)
)
_RUN_MASK: Final = tuple(
    (_UNIT[k] + _UNIT[k + 1] + _UNIT[k + 2]) if k % 10 <= 7 else 0 for k in range(NUM_KINDS)
)
_ERQISHI: Final = tuple(
    group_huxi(GroupKind.SENTENCE, (k, k + 5, k + 8)) if k % 10 == 1 else 0
    for k in range(NUM_KINDS)
)
_ERQISHI_MASK: Final = tuple(
    (_UNIT[k] + _UNIT[k + 5] + _UNIT[k + 8]) if k % 10 == 1 else 0 for k in range(NUM_KINDS)
)


# --------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Group:
    """One of the seven groups (门子) of a winning hand."""

    kind: GroupKind
    cards: tuple[int, ...]
    huxi: int
    from_table: bool

    def label(self) -> str:
        """``"ti d5 d5 d5 d5 (12)"``."""
        key = (self.kind, self.cards, self.huxi)
        text = _LABELS.get(key)
        if text is None:
            text = f"{self.kind.value} {' '.join(card_name(c) for c in self.cards)} ({self.huxi})"
            if len(_LABELS) < _LABELS_LIMIT:
                _LABELS[key] = text
        return text


# ``Group.label`` of the groups seen (every winning arrangement's groups are labelled)
_LABELS: dict[tuple[GroupKind, tuple[int, ...], int], str] = {}
_LABELS_LIMIT: Final = 1 << 14


@dataclass(frozen=True, slots=True)
class Arrangement:
    groups: tuple[Group, ...]
    huxi: int
    dui_dui: bool

    def labels(self) -> list[str]:
        return [g.label() for g in self.groups]


# --------------------------------------------------------------------------- summaries

# (groups, huxi, fours, card counts per kind, huxi gained when the card joins a table
#  meld of that kind (-1: no such meld), plain = no chi/bi meld)
_TableInfo = tuple[int, int, int, tuple[int, ...], tuple[int, ...], bool]
# (groups, huxi, fours, packed free cards, number of free cards)
_HandInfo = tuple[int, int, int, int, int]


def _meld_key(melds: Sequence[tuple[GroupKind, tuple[int, ...]]]) -> tuple[Meld, ...]:
    return melds if type(melds) is tuple else tuple(melds)


def _normalise(melds: Sequence[Any]) -> tuple[Meld, ...] | None:
    # (``Any``: callers' melds may name kinds as strings and hold cards in lists)
    out: list[Meld] = []
    for kind, cards in melds:
        try:
            out.append((kind if type(kind) is GroupKind else GroupKind(kind), tuple(cards)))
        except ValueError:
            return None
    return tuple(out)


def _table(melds: Sequence[tuple[GroupKind, tuple[int, ...]]]) -> _TableInfo | None:
    key = _meld_key(melds)
    try:
        return _table_info(key)
    except TypeError:  # unhashable cards (lists): normalise once
        norm = _normalise(key)
        return None if norm is None else _table_info(norm)


# (huxi, 1 if a four, the kind a 跑 can join or -1, the huxi that join adds, plain, cards)
_MeldInfo = tuple[int, int, int, int, bool, tuple[int, ...]]


@lru_cache(maxsize=1 << 12)
def _meld_info(raw_kind: str, raw_cards: Sequence[int]) -> _MeldInfo | None:
    """One table meld summarised; None when it is not a valid table meld."""
    try:
        kind = raw_kind if type(raw_kind) is GroupKind else GroupKind(raw_kind)
    except ValueError:
        return None
    cards = tuple(raw_cards)
    if kind not in _TABLE_KINDS or not cards or min(cards) < 0 or max(cards) >= NUM_KINDS:
        return None
    size = _ALIKE_LEN.get(kind)
    plain = True
    if size is None:
        if not is_chi_shape(cards):
            return None
        plain = False
    elif len(cards) != size or cards.count(cards[0]) != size:
        return None
    k = cards[0]
    join_kind, join = -1, 0
    if kind is GroupKind.PENG:
        join_kind, join = k, _PAO[k] - _PENG[k]
    elif kind is GroupKind.WEI or kind is GroupKind.CHOU_WEI:
        join_kind, join = k, _PAO[k] - _WEI[k]
    return group_huxi(kind, cards), int(kind in FOURS), join_kind, join, plain, cards


@lru_cache(maxsize=1 << 14)
def _table_info(key: tuple[Meld, ...]) -> _TableInfo | None:
    if len(key) > GROUPS_IN_A_WIN:
        return None
    huxi = fours = 0
    plain = True
    counts = [0] * NUM_KINDS
    join = [-1] * NUM_KINDS
    for raw_kind, raw_cards in key:
        info = _meld_info(raw_kind, raw_cards)
        if info is None:
            return None
        huxi += info[0]
        fours += info[1]
        if info[2] >= 0:
            join[info[2]] = info[3]
        if not info[4]:
            plain = False
        for c in info[5]:
            counts[c] += 1
    if max(counts) > 4:
        return None
    return len(key), huxi, fours, tuple(counts), tuple(join), plain


#: a seat's table melds summarised for the win check (``table_summary``, ``table_plus``)
TableSummary = _TableInfo


def table_summary(melds: Sequence[tuple[GroupKind, tuple[int, ...]]]) -> TableSummary | None:
    """The melds summarised; None when they are no valid table melds of one winner."""
    return _table(melds)


def table_plus(t: TableSummary | None, kind: GroupKind, cards: tuple[int, ...]) \
        -> TableSummary | None:
    """``table_summary`` of the melds of ``t`` and one more: ``table_summary(melds +
    [(kind, cards)])`` computed from ``t = table_summary(melds)``."""
    if t is None or t[0] >= GROUPS_IN_A_WIN:
        return None
    info = _meld_info(kind, cards)
    if info is None:
        return None
    counts = list(t[3])
    for c in info[5]:
        counts[c] += 1
        if counts[c] > 4:
            return None
    join = t[4]
    if info[2] >= 0:
        join = join[:info[2]] + (info[3],) + join[info[2] + 1:]
    return (t[0] + 1, t[1] + info[0], t[2] + info[1], tuple(counts), join, t[5] and info[4])


def _hand_key(hand: Sequence[int]) -> tuple[int, ...]:
    return hand if type(hand) is tuple else tuple(hand)


# a count 0..4 as its octal digit; any other byte is no digit (the packing fails)
_OCTAL: Final = bytes(range(0x30, 0x35)) + b"x" * 251


def _hand_info(hand: tuple[int, ...]) -> _HandInfo | None:
    if len(hand) != NUM_KINDS:
        return None
    try:  # packed 3 bits a kind = the counts as octal digits, kind 0 the last
        digits = bytes(hand[::-1]).translate(_OCTAL)
        free = int(digits, 8)
    except (ValueError, TypeError):  # a count below 0 or above 4
        return None
    free_n = sum(hand)
    groups = huxi = fours = 0
    at = digits.find(b"3")  # the 坎: found in the digits (kind 19 - at)
    while at >= 0:
        k = _LAST - at
        huxi += _KAN[k]
        groups += 1
        free -= _KAN_UNITS[k]
        free_n -= 3
        at = digits.find(b"3", at + 1)
    at = digits.find(b"4")  # should not occur: four alike in hand count as a 提
    while at >= 0:
        k = _LAST - at
        huxi += _TI[k]
        fours += 1
        groups += 1
        free -= 4 * _UNIT[k]
        free_n -= 4
        at = digits.find(b"4", at + 1)
    return groups, huxi, fours, free, free_n


_LAST: Final = NUM_KINDS - 1
_KAN_UNITS: Final = tuple(3 * u for u in _UNIT)


# --------------------------------------------------------------------------- free-card split

# the kind of a packed count's lowest set bit, by ``bit_length`` of that bit
_KIND_AT_BIT: Final = tuple(max(0, b - 1) // 3 for b in range(3 * NUM_KINDS + 1))
# two of a kind, and the two 绞 of a rank (two small and a big, a small and two big)
_TWO: Final = tuple(2 * u for u in _UNIT)
_JIAO_TWO_SMALL: Final = tuple(2 * _UNIT[k] + _UNIT[k + 10] for k in range(10))
_JIAO_TWO_BIG: Final = tuple(_UNIT[k] + 2 * _UNIT[k + 10] for k in range(10))

# Memos of ``_split``: packed free cards -> best huxi, one memo with no pair owed and one
# with the pair still owed (two dicts keep the keys at 60 bits: two-digit ints).
_MEMO_LIMIT: Final = 1 << 18
_memo: dict[int, int] = {}
_memo_pair: dict[int, int] = {}


def _free_best(x: int, pair: bool) -> int:
    """Most huxi splitting the packed free cards ``x`` into sentences and 绞, plus one pair
    iff ``pair``; -1 when impossible."""
    memo = _memo_pair if pair else _memo
    r = memo.get(x)
    if r is None:
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        r = _split(x, pair)
    return r


def _split(x: int, pair: bool) -> int:
    """``_free_best`` on a memo miss; every option uses the lowest kind present."""
    if not x:
        return -1 if pair else 0
    memo = _memo_pair if pair else _memo
    k = _KIND_AT_BIT[(x & -x).bit_length()]  # the lowest kind present
    y = x >> 3 * k  # the counts from kind k up, kind k in the lowest 3 bits
    n = y & 7
    best = -1
    if pair and n >= 2:  # the pair: the rest owes none
        sub = x - _TWO[k]
        r = _memo.get(sub)
        best = _split(sub, False) if r is None else r
    rk = k % 10
    if rk <= 7 and y & 0o70 and y & 0o700:  # k + 1 and k + 2 present
        sub = x - _RUN_MASK[k]
        r = memo.get(sub)
        if r is None:
            r = _split(sub, pair)
        if r >= 0 and r + _RUN[k] > best:
            best = r + _RUN[k]
    if rk == 1 and y & 0o700000 and y & 0o700000000:  # 七 (k + 5) and 十 (k + 8)
        sub = x - _ERQISHI_MASK[k]
        r = memo.get(sub)
        if r is None:
            r = _split(sub, pair)
        if r >= 0 and r + _ERQISHI[k] > best:
            best = r + _ERQISHI[k]
    if k < 10:
        m = (y >> 30) & 7  # the same rank, big
        if m:
            if n >= 2:
                sub = x - _JIAO_TWO_SMALL[k]
                r = memo.get(sub)
                if r is None:
                    r = _split(sub, pair)
                if r > best:
                    best = r
            if m >= 2:
                sub = x - _JIAO_TWO_BIG[k]
                r = memo.get(sub)
                if r is None:
                    r = _split(sub, pair)
                if r > best:
                    best = r
    memo[x] = best
    return best


# Memos of ``_ting``: packed free cards -> bit mask of the kinds that complete a split.
_ting_memo: dict[int, int] = {}
_ting_memo_pair: dict[int, int] = {}


def _ting(x: int, pair: bool) -> int:
    """The kinds ``c`` (bit ``c``) for which ``x + _UNIT[c]`` can be split (``_free_best
    >= 0``): a filter that spares the search the many cards that fit no split.

    The lowest kind ``k`` of ``x`` is in one group of any split of the cards with ``c``.
    Either ``c`` is in that group too (made with cards of ``x``, below ``k`` only as its
    lowest card: the run ``k-1 k k+1``, 二 of 二七十 with ``k`` its 七, the small of a
    绞 with two ``k`` big) and the rest of ``x`` splits, or the group is all of ``x``
    and ``c`` completes the rest."""
    memo = _ting_memo_pair if pair else _ting_memo
    r = memo.get(x)
    if r is not None:
        return r
    if not x:
        return 0
    k = _KIND_AT_BIT[(x & -x).bit_length()]
    y = x >> 3 * k
    n = y & 7
    rk = k % 10
    u = _UNIT[k]
    mask = 0
    if pair and n >= 1:  # the pair k k
        if _free_best(x - u, False) >= 0:  # c = k
            mask |= 1 << k
        if n >= 2:
            mask |= _ting(x - 2 * u, False)
    if rk <= 7:  # the run k k+1 k+2
        a, b = y & 0o70, y & 0o700
        if a and b:
            mask |= _ting(x - _RUN_MASK[k], pair)
        if b and _free_best(x - u - _UNIT[k + 2], pair) >= 0:
            mask |= 2 << k  # c = k + 1
        if a and _free_best(x - u - _UNIT[k + 1], pair) >= 0:
            mask |= 4 << k  # c = k + 2
    if 1 <= rk <= 8 and y & 0o70 and _free_best(x - u - _UNIT[k + 1], pair) >= 0:
        mask |= 1 << (k - 1)  # the run k-1 k k+1, c = k - 1
    if rk == 1:  # 二七十 from 二
        a, b = (y >> 15) & 7, (y >> 24) & 7
        if a and b:
            mask |= _ting(x - _ERQISHI_MASK[k], pair)
        if b and _free_best(x - u - _UNIT[k + 8], pair) >= 0:
            mask |= 1 << (k + 5)
        if a and _free_best(x - u - _UNIT[k + 5], pair) >= 0:
            mask |= 1 << (k + 8)
    elif rk == 6 and (y >> 9) & 7 and _free_best(x - u - _UNIT[k + 3], pair) >= 0:
        mask |= 1 << (k - 5)  # 二七十 with c its 二
    if k < 10:  # 绞 of k small and K big
        m = (y >> 30) & 7
        uk = _UNIT[k + 10]
        if m:
            if n >= 2:
                mask |= _ting(x - 2 * u - uk, pair)
            if m >= 2:
                mask |= _ting(x - u - 2 * uk, pair)
            if _free_best(x - u - uk, pair) >= 0:
                mask |= (1 << k) | (1 << (k + 10))  # k k K with c = k; k K K with c = K
        if n >= 2 and _free_best(x - 2 * u, pair) >= 0:
            mask |= 1 << (k + 10)  # k k K with c = K
    elif n >= 2 and _free_best(x - 2 * u, pair) >= 0:
        mask |= 1 << (k - 10)  # the 绞 s K K with c = s, the small
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[x] = mask
    return mask


def _pair_owed(free_n: int, groups: int, fours: int) -> int:
    """Whether ``free_n`` free cards can make up the groups a win still needs besides
    ``groups``: -1 no; 1 yes, as threes and the pair (there is a four); 0 yes, as threes."""
    need = GROUPS_IN_A_WIN - groups
    if fours:
        return 1 if need >= 0 and free_n == 3 * need - 1 else -1
    return 0 if need >= 0 and free_n == 3 * need else -1


def _complete(free: int, free_n: int, groups: int, fours: int, huxi: int) -> int:
    pair = _pair_owed(free_n, groups, fours)
    if pair < 0:
        return -1
    r = _free_best(free, pair > 0)
    return -1 if r < 0 else huxi + r


# --------------------------------------------------------------------------- fast path


def best_huxi(
    melds: Sequence[tuple[GroupKind, tuple[int, ...]]],
    hand: Sequence[int],
    card: int | None,
) -> int:
    """Most huxi of any winning arrangement of the holdings; -1 when they are no win.

    ``min_huxi`` is not applied: the caller compares.
    """
    t = _table(melds)
    if t is None:
        return -1
    key = _hand_key(hand)
    h = _hand_info(key)
    if h is None:
        return -1
    return _best(t, h, key, card)


def _best(t: _TableInfo, h: _HandInfo, key: tuple[int, ...], card: int | None) -> int:
    """``best_huxi`` on the summaries of valid holdings."""
    t_groups, t_huxi, t_fours, t_counts, t_join, _ = t
    h_groups, h_huxi, h_fours, free, free_n = h
    groups = t_groups + h_groups
    huxi = t_huxi + h_huxi
    fours = t_fours + h_fours
    if card is None:
        return _complete(free, free_n, groups, fours, huxi)
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        return -1
    n = key[card]
    if n + t_counts[card] >= 4:  # the card would be a fifth copy
        return -1
    # The card with the free cards.
    best = _complete(free + _UNIT[card], free_n + 1, groups, fours, huxi)
    # The card onto a 碰/偎 on the table, or a 坎 in hand: a 跑.
    j = t_join[card]
    if j >= 0:
        r = _complete(free, free_n, groups, fours + 1, huxi + j)
        if r > best:
            best = r
    elif n == 3:
        r = _complete(free, free_n, groups, fours + 1, huxi + _PAO[card] - _KAN[card])
        if r > best:
            best = r
    elif n == 2:  # onto a pair in hand: a 碰
        r = _complete(free - 2 * _UNIT[card], free_n - 2, groups + 1, fours, huxi + _PENG[card])
        if r > best:
            best = r
    return best


def _huxi_bound(x: int) -> int:
    """At most this much huxi from any split of the packed free cards ``x``: only 一二三
    and 二七十 score, one each per copy of their scarcest card (small 3, big 6).

    A case's part depends only on its 一, 二, 三, 七 and 十 (``_BOUND_DIGITS``): looked
    up per case in ``_CASE_BOUND`` (half the instructions of the arithmetic; this runs
    for most claim-window win checks)."""
    small = x & _BOUND_DIGITS
    s = _CASE_BOUND.get(small)
    if s is None:
        s = _CASE_BOUND[small] = _case_bound(small)
    big = (x >> 30) & _BOUND_DIGITS
    b = _CASE_BOUND.get(big)
    if b is None:
        b = _CASE_BOUND[big] = _case_bound(big)
    return 3 * s + 6 * b


def _case_bound(case: int) -> int:
    """Copies of 一二三 plus copies of 二七十 one case's counts could make (each at most
    its scarcest card; the 二 both share caps each, not their sum: a bound)."""
    two = (case >> 3) & 7
    if not two:
        return 0
    n = case & 7
    m = (case >> 6) & 7
    bound = (n if n < m else m) if n < two or m < two else two
    n = (case >> 18) & 7
    m = (case >> 27) & 7
    return bound + ((n if n < m else m) if n < two or m < two else two)


# the digits of 一, 二, 三, 七 and 十 in a case's 30 bits; ``_case_bound`` of such digits
_BOUND_DIGITS: Final = sum(7 << 3 * r for r in (0, 1, 2, 6, 9))
_CASE_BOUND: dict[int, int] = {}


#: every kind, as a mask (bit ``k``: kind ``k``)
_ALL_KINDS: Final = (1 << NUM_KINDS) - 1
# the kinds ``_huxi_bound`` reads: 一, 二, 三, 七 and 十 of each case
_BOUND_KINDS: Final = tuple(k % 10 in (0, 1, 2, 6, 9) for k in range(NUM_KINDS))


def wins_with(
    melds: Sequence[tuple[GroupKind, tuple[int, ...]]],
    hand: Sequence[int],
    card: int,
    min_huxi: int,
) -> bool:
    """``best_huxi(melds, hand, card) >= min_huxi``, without the search when even the
    best split could not reach ``min_huxi`` (most seats asked about a revealed card)."""
    return WinCheck(melds, _hand_key(hand)).wins(card, min_huxi)


def reaches(
    melds: Sequence[tuple[GroupKind, tuple[int, ...]]],
    hand: Sequence[int],
    card: int | None,
    min_huxi: int,
) -> bool:
    """``best_huxi(melds, hand, card) >= min_huxi`` for ``min_huxi >= 0``, without the
    search when even the best split could not reach ``min_huxi``."""
    check = WinCheck(melds, _hand_key(hand))
    return check.complete(min_huxi) if card is None else check.wins(card, min_huxi)


class WinCheck:
    """``best_huxi(melds, hand, card) >= min_huxi`` for one seat's holdings, asked about
    several cards: the holdings are summarised once, and the search is skipped when even
    the best split could not reach ``min_huxi`` (the fixed groups, the most the card adds
    as a 跑/碰, and ``_huxi_bound`` of the free cards with the card). ``hand`` is the hand
    it was built for. ``min_huxi >= 0``.

    ``_best``'s three placements of the card (with the free cards; onto a table meld or
    a 坎 as a 跑; onto a pair as a 碰) are tried here one by one, each only when the
    number of free cards fits it (decided once, in ``_setup``), and the first that
    reaches ``min_huxi`` answers: a claim window asks every seat about every revealed
    card, and nearly all the answers are no."""

    __slots__ = ("hand", "_t", "_h", "_fixed", "_bound", "_ting", "free", "_counts",
                 "_join", "_loose", "_four", "_peng", "_bits_huxi", "_asked", "_won",
                 "_open")
    hand: tuple[int, ...]
    _t: _TableInfo | None
    _h: _HandInfo | None
    _fixed: int
    _bound: int
    _ting: int  # ``_ting`` of the free cards; -1 until asked
    #: the hand's free cards packed (the kinds held three or four times left out, as
    #: ``_hand_info``); -1: the hand is no valid counts (``chi.can_chi_packed`` reads it)
    free: int
    _counts: tuple[int, ...]  # the table's cards per kind
    _join: tuple[int, ...]  # huxi a 跑 onto a table meld of the kind adds; -1: none
    #: for each placement, whether the free cards' split owes the pair (1) or not (0);
    #: -1: the counts rule the placement out (ints, not the memos: a clone copies these)
    _loose: int  # the card with the free cards
    _four: int  # a 跑 (onto a table meld or a 坎): a four, so a pair
    _peng: int  # a 碰 of a pair in hand
    #: ``win_bits``' answers so far: the ``min_huxi`` asked (-1: none yet, the two masks
    #: unset), the kinds asked and those that win
    _bits_huxi: int
    _asked: int
    _won: int
    #: the kinds ``wins(k, …, many=True)`` could say yes to, whatever ``min_huxi``: a
    #: placement of each is possible (``_candidates``); -1 until asked
    _open: int

    def __init__(self, melds: Sequence[tuple[GroupKind, tuple[int, ...]]] | None = None,
                 hand: tuple[int, ...] = (), table: TableSummary | None = None) -> None:
        """A check on ``hand`` and ``melds``, or, with ``melds`` ``None``, the melds
        summarised as ``table`` (``on_table``). Callable without arguments (no holdings,
        no win) so that a compiled build can copy it (``replay/native.py``)."""
        self._setup(table if melds is None else _table(melds), hand)

    @classmethod
    def on_table(cls, table: TableSummary | None, hand: tuple[int, ...]) -> WinCheck:
        """A check on ``hand`` and the melds summarised as ``table`` (``table_summary``)."""
        return cls(None, hand, table)

    def _setup(self, t: _TableInfo | None, hand: tuple[int, ...]) -> None:
        self.hand = hand
        self._ting = self._bits_huxi = self._open = -1
        h = _hand_info(hand)
        self._t, self._h = t, h
        if t is None or h is None:
            self._fixed = self._bound = 0
            self.free = -1 if h is None else h[3]
            self._loose = self._four = self._peng = -1
            return
        self._fixed = t[1] + h[1]
        free, free_n = h[3], h[4]
        self.free = free
        self._bound = _huxi_bound(free)
        self._counts, self._join = t[3], t[4]
        # ``_pair_owed`` of each of ``_best``'s placements of the card, written out (a
        # seat's holdings are set up again after each of its moves): the card with the
        # free cards, a 跑 (a four more), a 碰 (a group more, two free cards fewer)
        need = GROUPS_IN_A_WIN - t[0] - h[0]
        pair = 1 if t[2] + h[2] else 0
        self._loose = pair if need >= 0 and free_n + 1 == 3 * need - pair else -1
        self._four = 1 if need >= 0 and free_n == 3 * need - 1 else -1
        self._peng = pair if need >= 1 and free_n - 2 == 3 * (need - 1) - pair else -1

    def wins(self, card: int, min_huxi: int, many: bool = False) -> bool:
        """``wins_with(melds, hand, card, min_huxi)``. ``many``: these holdings are asked
        about many cards (every kind a discarder could throw, ``ready``): the kinds that
        complete a split of the free cards are found once (``_ting``), and a card outside
        them tries only its 跑/碰 placements. The same answers either way."""
        t = self._t
        if t is None or self._h is None or type(card) is not int or \
                not 0 <= card < NUM_KINDS:
            return False
        n = self.hand[card]
        j = self._join[card]
        # the most the card adds as a 跑 (table meld or 坎) or a 碰
        gain = j if j >= 0 else _PAO[card] - _KAN[card] if n == 3 else \
            _PENG[card] if n == 2 else 0
        bound = _huxi_bound(self.free + _UNIT[card]) if _BOUND_KINDS[card] else self._bound
        need = min_huxi - self._fixed  # the huxi the placement must add
        if gain + bound < need or n + self._counts[card] >= 4:  # (or a fifth copy)
            return False
        pair = self._loose
        if pair >= 0 and many:
            ting = self._ting
            if ting < 0:
                known = (_ting_memo_pair if pair else _ting_memo).get(self.free)
                ting = self._ting = _ting(self.free, pair > 0) if known is None else known
            if not (ting >> card) & 1:
                pair = -1
        if pair >= 0:  # the card with the free cards
            r = _free_best(self.free + _UNIT[card], pair > 0)
            if r >= 0 and r >= need:
                return True
        if j >= 0 or n == 3:  # a 跑
            if self._four < 0:
                return False
            r = _free_best(self.free, True)
        elif n == 2:  # a 碰
            pair = self._peng
            if pair < 0:
                return False
            r = _free_best(self.free - 2 * _UNIT[card], pair > 0)
        else:
            return False
        return r >= 0 and r + gain >= need

    def win_bits(self, kinds: int, min_huxi: int) -> int:
        """The kinds of ``kinds`` (bit ``k``: kind ``k``, ``0 <= k < NUM_KINDS``) that win,
        ``wins(k, min_huxi, True)`` for each. The answers are kept: a seat keeps its
        holdings across the discards of the two others, and the fair-play reach asks it
        about every kind each discarder could throw."""
        if self._bits_huxi != min_huxi:
            self._bits_huxi = min_huxi
            self._asked = self._won = 0
        todo = kinds & ~self._asked
        if todo:
            won = self._won
            todo &= self._candidates()  # (the others do not win: 85% of the kinds asked)
            while todo:
                low = todo & -todo
                todo ^= low
                if self.wins(low.bit_length() - 1, min_huxi, True):
                    won |= low
            self._won = won
            self._asked |= kinds
        return self._won & kinds

    def _candidates(self) -> int:
        """The kinds for which ``wins(k, min_huxi, True)`` gets past its placements'
        own conditions: the card with the free cards only for a kind of ``_ting`` (when
        the counts allow that placement), a 跑 for a kind joining a table meld or held
        three times (when a four fits), a 碰 for a kind held twice (when a group more
        fits). Any other kind answers no for every ``min_huxi``. Every kind while the
        听 kinds of these free cards have not been searched (``wins`` searches them
        only for a kind that passes its bound: never more than without this)."""
        found = self._open
        if found >= 0:
            return found
        found = 0
        if self._t is not None and self._h is not None:
            pair = self._loose
            if pair >= 0:
                ting = self._ting
                if ting < 0:
                    known = (_ting_memo_pair if pair else _ting_memo).get(self.free)
                    if known is None:  # not searched yet: left to ``wins``, which
                        return _ALL_KINDS  # searches only if a kind passes its bound
                    ting = self._ting = known
                found = ting
            hand, join = self.hand, self._join
            four, peng = self._four >= 0, self._peng >= 0
            for k in range(NUM_KINDS):
                if join[k] >= 0 or hand[k] == 3:
                    if four:
                        found |= 1 << k
                elif hand[k] == 2 and peng:
                    found |= 1 << k
        self._open = found
        return found

    def ready(self, min_huxi: int) -> bool:
        """听牌: some card kind would complete a win with at least ``min_huxi``."""
        return any(self.wins(k, min_huxi, True) for k in range(NUM_KINDS))

    def complete(self, min_huxi: int) -> bool:
        """The holdings without a card are a win of at least ``min_huxi``."""
        t, h = self._t, self._h
        if t is None or h is None or self._fixed + self._bound < min_huxi:
            return False
        return _best(t, h, self.hand, None) >= min_huxi


def is_ready(
    melds: Sequence[tuple[GroupKind, tuple[int, ...]]],
    hand: Sequence[int],
    min_huxi: int,
) -> bool:
    """听牌: some card kind would complete a win with at least ``min_huxi``."""
    return WinCheck(melds, _hand_key(hand)).ready(min_huxi)


# --------------------------------------------------------------------------- full search


def _by_huxi_first(item: tuple[int, object]) -> int:
    return -item[0]


@lru_cache(maxsize=1 << 12)
def _free_splits(x: int, pair: bool) -> tuple[tuple[int, tuple[_Shape, ...]], ...]:
    """Every huxi total a split of ``x`` can reach, each with the first split found
    (fixed order: pair, run, 2-7-10, 绞 two-one, 绞 one-two), best first."""
    if not x:
        return () if pair else ((0, ()),)
    k = ((x & -x).bit_length() - 1) // 3
    sh = 3 * k
    n = (x >> sh) & 7
    # (the group of the lowest kind, its huxi, the cards left, whether they owe the pair)
    firsts: list[tuple[_Shape, int, int, bool]] = []
    if pair and n >= 2:
        firsts.append(((GK_PAIR, (k, k)), 0, x - 2 * _UNIT[k], False))
    rk = k % 10
    if rk <= 7 and (x >> (sh + 3)) & 7 and (x >> (sh + 6)) & 7:
        firsts.append(((GK_SENTENCE, (k, k + 1, k + 2)), _RUN[k], x - _RUN_MASK[k], pair))
    if rk == 1 and (x >> (sh + 15)) & 7 and (x >> (sh + 24)) & 7:
        firsts.append(((GK_SENTENCE, (k, k + 5, k + 8)), _ERQISHI[k], x - _ERQISHI_MASK[k],
                       pair))
    if k < 10:
        m = (x >> (sh + 30)) & 7
        if m and n >= 2:
            firsts.append(((GK_JIAO, (k, k, k + 10)), 0, x - 2 * _UNIT[k] - _UNIT[k + 10], pair))
        if m >= 2:
            firsts.append(((GK_JIAO, (k, k + 10, k + 10)), 0, x - _UNIT[k] - 2 * _UNIT[k + 10],
                           pair))
    found: dict[int, tuple[_Shape, ...]] = {}
    for shape, gain, rest, rest_pair in firsts:
        if _free_best(rest, rest_pair) < 0:
            continue  # no split of the rest (the win check's memo knows most of them)
        for h, groups in _free_splits(rest, rest_pair):
            found.setdefault(h + gain, (shape, *groups))
    return tuple(sorted(found.items(), key=_by_huxi_first))


@lru_cache(maxsize=1 << 12)
def _group(kind: GroupKind, cards: tuple[int, ...], from_table: bool) -> Group:
    """A group and its huxi (frozen: one object per group seen)."""
    return Group(kind, cards, group_huxi(kind, cards), from_table)


# (table groups, hand groups, packed free cards, number of free cards, fours)
_Option = tuple[list[Group], list[Group], int, int, int]


def _options(
    melds: Sequence[tuple[GroupKind, tuple[int, ...]]],
    hand: Sequence[int],
    card: int | None,
) -> tuple[list[_Option], bool] | None:
    """The placements of the winning card and whether the table is plain (no 吃/比);
    None when the holdings are no win whatever the split."""
    key = _meld_key(melds)
    t = _table(key)
    h = _hand_info(_hand_key(hand))
    if t is None or h is None:
        return None
    norm = _normalise(key)
    if norm is None:
        return None
    _, _, t_fours, t_counts, t_join, plain = t
    _, _, h_fours, free, free_n = h
    hand_t = _hand_key(hand)

    table = [_group(kind, cards, True) for kind, cards in norm]
    fixed: list[Group] = []
    if 3 in hand_t or 4 in hand_t:
        for k, n in enumerate(hand_t):
            if n == 3:
                fixed.append(_group(GK_KAN, (k,) * 3, False))
            elif n == 4:
                fixed.append(_group(GK_TI, (k,) * 4, False))

    options: list[_Option] = []
    fours = t_fours + h_fours
    if card is None:
        options.append((table, fixed, free, free_n, fours))
    else:
        if type(card) is not int or not 0 <= card < NUM_KINDS:
            return None
        n = hand_t[card]
        if n + t_counts[card] >= 4:
            return None
        if t_join[card] >= 0:
            joined = list(table)
            for i, (kind, cards) in enumerate(norm):
                if kind in (GroupKind.PENG, GroupKind.WEI, GroupKind.CHOU_WEI) and cards[0] == card:
                    joined[i] = _group(GroupKind.PAO, (*cards, card), True)
                    break
            options.append((joined, fixed, free, free_n, fours + 1))
        elif n == 3:
            kan = [
                _group(GroupKind.PAO, (card,) * 4, False) if g.cards[0] == card else g
                for g in fixed
            ]
            options.append((table, kan, free, free_n, fours + 1))
        elif n == 2:
            peng = [*fixed, _group(GroupKind.PENG, (card,) * 3, False)]
            options.append((table, peng, free - 2 * _UNIT[card], free_n - 2, fours))
        options.append((table, fixed, free + _UNIT[card], free_n + 1, fours))
    return options, plain


def _complete_options(
    options: list[_Option],
) -> list[tuple[list[Group], list[Group], int, int, int]]:
    """The placements whose free cards can make up the 7 groups: (table groups, hand
    groups, packed free cards, fours, huxi of the fixed groups)."""
    out = []
    for tab, hand_groups, x, x_n, f in options:
        if _pair_owed(x_n, len(tab) + len(hand_groups), f) < 0:
            continue
        out.append((tab, hand_groups, x, f,
                    sum(g.huxi for g in tab) + sum(g.huxi for g in hand_groups)))
    return out


def holdings(melds: Sequence[tuple[GroupKind, Sequence[int]]], hand: Sequence[int],
             card: int | None) -> list[int]:
    """Counts per kind of every card of the holdings: the melds, the hand and the card."""
    out = list(hand)
    for _, cards in melds:
        for k in cards:
            out[k] += 1
    if card is not None:
        out[card] += 1
    return out


def _arrangement(tab: list[Group], hand_groups: list[Group], shapes: tuple[_Shape, ...],
                 huxi: int, plain: bool) -> Arrangement:
    rest = [*hand_groups, *(_group(kind, cards, False) for kind, cards in shapes)]
    rest.sort(key=lambda g: (_KIND_ORDER[g.kind], g.cards))
    all_groups = (*tab, *rest)
    dui = plain and all(g.kind in OF_ONE_KIND for g in all_groups)
    return Arrangement(all_groups, huxi, dui)


def search(
    melds: Sequence[tuple[GroupKind, tuple[int, ...]]],
    hand: Sequence[int],
    card: int | None,
    *,
    every_huxi: bool = False,
) -> list[Arrangement]:
    """The best arrangements of the holdings; ``[]`` when they are no win.

    By default at most two: the one with the most huxi (an 对对 one preferred on a tie)
    and, if that is not 对对, the best 对对 one when there is any. With ``every_huxi``:
    one per distinct huxi total (对对 preferred on a tie), most huxi first — needed when
    the grade is not monotonic in huxi (hengshan: 10 huxi is 3 级, 11 only 1).
    Deterministic: ties are broken by a fixed order of placements and splits.
    """
    found = _options(melds, hand, card)
    if found is None:
        return []
    options, plain = found
    # Best per huxi total; on a tie a 对对 one replaces a plain one, else the first stays.
    by_huxi: dict[int, Arrangement] = {}
    for tab, hand_groups, x, f, base in _complete_options(options):
        for gain, shapes in _free_splits(x, f > 0):
            arr = _arrangement(tab, hand_groups, shapes, base + gain, plain)
            old = by_huxi.get(arr.huxi)
            if old is None or (arr.dui_dui and not old.dui_dui):
                by_huxi[arr.huxi] = arr
    ranked = [by_huxi[hx] for hx in sorted(by_huxi, reverse=True)]
    if every_huxi or not ranked:
        return ranked
    best = ranked[0]
    if best.dui_dui:
        return [best]
    for arr in ranked[1:]:
        if arr.dui_dui:
            return [best, arr]
    return [best]


@lru_cache(maxsize=1 << 12)
def _free_splits_xi(x: int, pair: bool) -> tuple[tuple[int, bool, tuple[_Shape, ...]], ...]:
    """Like ``_free_splits``, one split per (huxi total, every group but the pair has
    huxi): what the changde 行行息/假行行 read. Best huxi first, an all-huxi one first on
    a tie."""
    if not x:
        return () if pair else ((0, True, ()),)
    k = ((x & -x).bit_length() - 1) // 3
    sh = 3 * k
    n = (x >> sh) & 7
    found: dict[tuple[int, bool], tuple[_Shape, ...]] = {}

    def add(shape: _Shape, gain: int, xi: bool, rest: int, rest_pair: bool) -> None:
        if _free_best(rest, rest_pair) < 0:
            return  # no split of the rest (the win check's memo knows most of them)
        for h, rest_xi, groups in _free_splits_xi(rest, rest_pair):
            found.setdefault((h + gain, xi and rest_xi), (shape, *groups))

    if pair and n >= 2:
        add((GroupKind.PAIR, (k, k)), 0, True, x - 2 * _UNIT[k], False)
    rk = k % 10
    if rk <= 7 and (x >> (sh + 3)) & 7 and (x >> (sh + 6)) & 7:
        add((GroupKind.SENTENCE, (k, k + 1, k + 2)), _RUN[k], _RUN[k] > 0, x - _RUN_MASK[k],
            pair)
    if rk == 1 and (x >> (sh + 15)) & 7 and (x >> (sh + 24)) & 7:
        add((GroupKind.SENTENCE, (k, k + 5, k + 8)), _ERQISHI[k], True, x - _ERQISHI_MASK[k],
            pair)
    if k < 10:
        m = (x >> (sh + 30)) & 7
        if m and n >= 2:
            add((GroupKind.JIAO, (k, k, k + 10)), 0, False, x - 2 * _UNIT[k] - _UNIT[k + 10],
                pair)
        if m >= 2:
            add((GroupKind.JIAO, (k, k + 10, k + 10)), 0, False,
                x - _UNIT[k] - 2 * _UNIT[k + 10], pair)
    return tuple((h, xi, shapes) for (h, xi), shapes in
                 sorted(found.items(), key=lambda item: (-item[0][0], not item[0][1])))


def search_shapes(
    melds: Sequence[tuple[GroupKind, tuple[int, ...]]],
    hand: Sequence[int],
    card: int | None,
) -> list[Arrangement]:
    """Every arrangement that can score differently under changde (RULES §11): one per
    distinct (huxi, 对对, pair, every group but the pair has huxi), most huxi first.

    The scorer picks the one with the most points; 对子胡, 行行息 and 假行行 depend on
    the arrangement, so a lower-huxi one may score more. Deterministic like ``search``.
    """
    found = _options(melds, hand, card)
    if found is None:
        return []
    options, plain = found
    by_shape: dict[tuple[int, bool, bool, bool], Arrangement] = {}
    for tab, hand_groups, x, f, base in _complete_options(options):
        fixed_xi = all(g.huxi > 0 for g in tab) and all(g.huxi > 0 for g in hand_groups)
        for gain, xi, shapes in _free_splits_xi(x, f > 0):
            arr = _arrangement(tab, hand_groups, shapes, base + gain, plain)
            key = (arr.huxi, arr.dui_dui, f > 0, fixed_xi and xi)
            by_shape.setdefault(key, arr)
    return [by_shape[k] for k in sorted(by_shape, key=lambda k: (-k[0], k[1:]))]


# --------------------------------------------------------------------------- caches


def clear_caches() -> None:
    for fn in (_meld_info, _table_info, _free_splits, _free_splits_xi, _group):
        fn.cache_clear()
    _memo.clear()
    _memo_pair.clear()
    _CASE_BOUND.clear()
    _LABELS.clear()
    clear_group_caches()
    clear_chi_cache()
    _ting_memo.clear()
    _ting_memo_pair.clear()


__all__ = [
    "Arrangement",
    "Group",
    "Meld",
    "best_huxi",
    "clear_caches",
    "holdings",
    "is_ready",
    "reaches",
    "search",
    "search_shapes",
    "wins_with",
]
