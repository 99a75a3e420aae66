"""The changde 名堂 (RULES §11): fifteen named fans, each with its condition and value.

Every 名堂 is counted at most once and their values are **added**; the multiplier is
``max(1, sum)``. The facts a 名堂 reads come in one ``WinShape``: card counts over the
winning holdings (red ``R``, big ``B``, small ``S``), the scored arrangement's shape and
the facts of the replayed hand's history (never the log's claims).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from .arrangements import Arrangement
from .cards import NUM_KINDS, red_count
from .groups import GroupKind

_SMALL_KINDS: Final = NUM_KINDS // 2


@dataclass(frozen=True, slots=True)
class WinShape:
    """Everything a 名堂 condition reads."""

    red: int
    big: int
    small: int
    #: some rank held four times small and four times big (大团圆)
    da_tuan_yuan: bool
    #: the arrangement's shape; all False for a mandatory 天胡 (no arrangement)
    dui_dui: bool = False
    has_pair: bool = False
    #: every group other than the pair has huxi (all 7 when there is no pair)
    all_groups_xi: bool = False
    #: history of the replayed hand
    opening_dealer: bool = False  # the dealer won at the opening (天胡)
    opening_other: bool = False  # another seat won at the opening (地胡)
    hai_di: bool = False
    ting: bool = False  # no 吃, 碰 or 跑 by the winner before the win
    shua_hou: bool = False  # one card in hand before the winning card


@dataclass(frozen=True, slots=True)
class MingTang:
    """One row of the §11 table: ``value`` gives the fans, 0 when the condition fails."""

    name: str
    condition: str
    value: Callable[[WinShape], int]


def _at_least(n: int, least: int, base: int) -> int:
    return base + (n - least) if n >= least else 0


#: the §11 table, in its order.
MINGTANG: Final[tuple[MingTang, ...]] = (
    MingTang("hong_hu", "R >= 10: 3 + (R - 10)", lambda w: _at_least(w.red, 10, 3)),
    MingTang("wu_hu", "R == 0: 8", lambda w: 8 if w.red == 0 else 0),
    MingTang("dian_hu", "R == 1: 6", lambda w: 6 if w.red == 1 else 0),
    MingTang("si_qi_hong", "R == 4 or R == 7: 2", lambda w: 2 if w.red in (4, 7) else 0),
    MingTang("dui_dui_hu", "every group of one kind: 8", lambda w: 8 if w.dui_dui else 0),
    MingTang("da_hu", "B >= 18: 8 + (B - 18)", lambda w: _at_least(w.big, 18, 8)),
    MingTang("xiao_hu", "S >= 16: 10 + (S - 16)", lambda w: _at_least(w.small, 16, 10)),
    MingTang("tian_hu", "the dealer wins at the opening: 6",
             lambda w: 6 if w.opening_dealer else 0),
    MingTang("di_hu", "another seat wins at the opening: 6",
             lambda w: 6 if w.opening_other else 0),
    MingTang("hai_di", "won on the last stock card: 6", lambda w: 6 if w.hai_di else 0),
    MingTang("ting_hu", "no 吃, 碰 or 跑 before the win: 6", lambda w: 6 if w.ting else 0),
    MingTang("shua_hou", "one card in hand before the winning card: 8",
             lambda w: 8 if w.shua_hou else 0),
    MingTang("da_tuan_yuan", "four small and four big of one rank: 8",
             lambda w: 8 if w.da_tuan_yuan else 0),
    MingTang("hang_hang_xi", "all 7 groups have huxi, no pair: 8",
             lambda w: 8 if w.all_groups_xi and not w.has_pair else 0),
    MingTang("jia_hang_hang", "the 6 groups other than the pair have huxi: 4",
             lambda w: 4 if w.all_groups_xi and w.has_pair else 0),
)


def card_counts(holdings: Sequence[int]) -> tuple[int, int, int, bool]:
    """(R, B, S, 大团圆) over the winning holdings (counts per kind)."""
    small = sum(holdings[:_SMALL_KINDS])
    big = sum(holdings[_SMALL_KINDS:])
    tuan = any(
        holdings[k] == 4 and holdings[k + _SMALL_KINDS] == 4 for k in range(_SMALL_KINDS)
    )
    return red_count(holdings), big, small, tuan


def arrangement_shape(arr: Arrangement) -> tuple[bool, bool, bool]:
    """(对对, has a pair, every group but the pair has huxi) of one arrangement."""
    has_pair = any(g.kind is GroupKind.PAIR for g in arr.groups)
    all_xi = all(g.huxi > 0 for g in arr.groups if g.kind is not GroupKind.PAIR)
    return arr.dui_dui, has_pair, all_xi


def mingtang(shape: WinShape) -> tuple[tuple[str, int], ...]:
    """The 名堂 earned, each with its fans, in §11 order."""
    out: list[tuple[str, int]] = []
    for m in MINGTANG:
        v = m.value(shape)
        if v:
            out.append((m.name, v))
    return tuple(out)


def multiplier(earned: Sequence[tuple[str, int]]) -> int:
    """``max(1, sum of fans)``."""
    return max(1, sum(v for _, v in earned))


__all__ = ["MINGTANG", "MingTang", "WinShape", "arrangement_shape", "card_counts", "mingtang",
           "multiplier"]
