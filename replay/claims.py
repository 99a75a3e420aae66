"""Who may claim a revealed card, in which order, and who passed (RULES §5, §7).

When a card is revealed (discarded, or drawn and not 提'd/偎'd) the engine opens
a ``Window``: what each seat could legally do with it at that moment. When the
window closes (someone took the card, or nobody did), ``passed_chances`` is the
one place where the 过张 rule is decided.

Claims, highest first: 胡 > forced 跑 > 碰 > 吃 (drawer, then ``next``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from . import arrangements
from .arrangements import WinCheck
from .cards import Card, next_seat, prev_seat
from .chi import can_chi, can_chi_packed
from .groups import GroupKind
from .ledger import Ledger
from .profiles import Profile
from .table import Table

WEI_KINDS = frozenset({GroupKind.WEI, GroupKind.CHOU_WEI})
PENG_KIND = frozenset({GroupKind.PENG})


class Claim(StrEnum):
    HU = "hu"
    PAO = "pao"
    PENG = "peng"
    CHI = "chi"


# Members read on the hot path, bound once: on Python 3.11 reading a member off its
# enum class goes through ``EnumType.__getattr__``'s slot, about 8x a global read
# (docs/performance.md, third pass).
CL_CHI: Final = Claim.CHI
CL_HU: Final = Claim.HU
CL_PAO: Final = Claim.PAO
CL_PENG: Final = Claim.PENG


@dataclass(slots=True, init=False)
class Window:
    card: Card
    src: int  # the discarder or the drawer
    drawn: bool
    seq: int
    last_card: bool  # the last stock card (海底)
    #: seats that could win on it now, highest priority first
    hu: list[int]
    #: the seat forced to 跑 it
    pao: int | None
    #: the seat with a legal 碰 (at most one: only four copies exist)
    peng: int | None
    #: seats allowed to 吃 it, highest first, and those of them with a legal 吃
    chi_order: tuple[int, ...]
    chi: list[int]
    #: each seat's table huxi when the card was revealed (for 臭胡 records)
    table_huxi: tuple[int, int, int]
    passes: set[int]

    def __init__(self, card: Card = 0, src: int = 0, drawn: bool = False, seq: int = 0,
                 last_card: bool = False) -> None:
        # written out: a window opens for every revealed card (the hot path); defaults so
        # that a compiled build can copy a window (``replay/native.py``)
        self.card = card
        self.src = src
        self.drawn = drawn
        self.seq = seq
        self.last_card = last_card
        self.hu = []
        self.pao = None
        self.peng = None
        self.chi_order = ()
        self.chi = []
        self.table_huxi = (0, 0, 0)
        self.passes = set()


def hu_order(src: int, drawn: bool) -> tuple[int, ...]:
    """Drawn: drawer, next, prev. Discarded: next, prev (only where allowed)."""
    return _HU_ORDER[drawn][src]


def chi_order(src: int, drawn: bool) -> tuple[int, ...]:
    """Drawn: drawer, next. Discarded: next."""
    return _CHI_ORDER[drawn][src]


_SEATS: Final = (0, 1, 2)

# every seat's orders, looked up (a window opens for every revealed card)
_HU_ORDER: Final = {
    True: tuple((s, next_seat(s), prev_seat(s)) for s in range(3)),
    False: tuple((next_seat(s), prev_seat(s)) for s in range(3)),
}
_CHI_ORDER: Final = {
    True: tuple((s, next_seat(s)) for s in range(3)),
    False: tuple((next_seat(s),) for s in range(3)),
}


def may_take(ledger: Ledger, seat: int, kind: Card, mian_used: bool) -> bool:
    """Not 臭 for the seat, and no 免张 taken (after which no 吃/碰)."""
    led = ledger.seats[seat]
    return not mian_used and kind not in led.chou_pai and kind not in led.guo_zhang


def win_huxi(table: Table, seat: int, card: Card | None) -> int:
    st = table.seats[seat]
    return arrangements.best_huxi(st.meld_pairs(), st.hand, card)


def open_window(
    table: Table, ledger: Ledger, profile: Profile, mian_used: list[bool],
    card: Card, src: int, drawn: bool, seq: int,
) -> Window:
    seats = table.seats
    w = Window(card, src, drawn, seq, drawn and table.stock_pos == len(table.stock))
    huxi = w.table_huxi = (seats[0].table_huxi, seats[1].table_huxi, seats[2].table_huxi)
    # the seats' win checks asked here: their packed free cards answer the 吃 below
    checks: list[WinCheck | None] = [None, None, None]
    if drawn or profile.hu_on_discard:
        min_huxi = profile.min_huxi
        for s in _HU_ORDER[drawn][src]:
            # the win first: 98% of the seats asked cannot win, and few are barred
            check = checks[s] = seats[s].win_check()
            if check.wins(card, min_huxi) and ledger.hu_bar(s, card, huxi[s]) is None:
                w.hu.append(s)
    pao = None
    for s in _SEATS:
        st = seats[s]
        if s != src and (st.hand[card] == 3 or card in st.wei_kinds):
            pao = s
        elif drawn and card in st.peng_kinds:
            pao = s
    w.chi_order = _CHI_ORDER[drawn][src]
    if pao is not None:
        w.pao = pao
    else:
        for s in _SEATS:
            if s != src and seats[s].hand[card] == 2 and \
                    may_take(ledger, s, card, mian_used[s]):
                w.peng = s
        for s in w.chi_order:
            if may_take(ledger, s, card, mian_used[s]):
                # (no check set up for the 吃 alone: that costs more than the ask)
                hand, asked = seats[s].hand, checks[s]
                if can_chi(hand, card) if asked is None else \
                        can_chi_packed(hand, asked.free, card):
                    w.chi.append(s)
    return w


def passed_chances(w: Window, taker: int | None, claim: Claim | None) -> list[tuple[int, bool]]:
    """过张 (RULES §7): ``(seat, could_peng)`` for every seat that had a legal 吃 or 碰
    of the revealed card and did not take it, unless the card went to a claim
    ranked above theirs (胡, a forced 跑, another's 碰 over their 吃, the drawer's
    吃 over ``next``'s 吃). A seat that could not use the card is not listed.
    """
    if claim in (CL_HU, CL_PAO):
        return []
    passed: dict[int, bool] = {}
    if w.peng is not None and w.peng != taker:
        passed[w.peng] = True
    for s in w.chi:
        if s == taker or claim is CL_PENG:
            continue
        if claim is CL_CHI and taker in w.chi_order and \
                w.chi_order.index(s) > w.chi_order.index(taker):
            continue  # a 吃 ranked above theirs took it
        passed.setdefault(s, False)
    return sorted(passed.items())


def refused_wins(w: Window, winner: int | None) -> list[int]:
    """Seats that could have won on the card and did not (臭胡).

    When someone wins, only the seats ranked above the winner declined.
    """
    if winner is None or winner not in w.hu:
        return [s for s in w.hu if s != winner]
    return w.hu[: w.hu.index(winner)]
