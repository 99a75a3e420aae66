"""The physical table: hands, melds, discard rows and the stock.

Like python-chess's board, the mutators here apply a move *unchecked*: the
rules (whose turn, what is forced, what is barred) live in the engine and its
rule modules, which decide first and then push the move here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from . import arrangements
from .arrangements import WinCheck
from .cards import NUM_KINDS, Card, counts_of
from .groups import FOURS, GK_CHI, GK_CHOU_WEI, GK_PENG, GK_TI, GK_WEI, GroupKind, group_huxi
from .model import Deal


@dataclass(slots=True, init=False)
class Meld:
    kind: GroupKind
    cards: tuple[Card, ...]
    seq: int | None
    #: for 提 and 跑: what it was made from ("dealt", "kan", "wei", "peng"); "" otherwise
    origin: str
    huxi: int

    def __init__(self, kind: GroupKind = GK_CHI, cards: tuple[Card, ...] = (),
                 seq: int | None = None, origin: str = "") -> None:
        # written out (a dataclass's __init__ then __post_init__: two calls a meld);
        # callable without arguments (a 吃 of no cards, 0 huxi) so that a compiled build
        # can copy it (``replay/native.py``)
        self.kind = kind
        self.cards = cards
        self.seq = seq
        self.origin = origin
        self.huxi = group_huxi(kind, cards)

    def face_up_count(self) -> int:
        """Cards the other seats see: a 偎 none, a 臭偎 and a 提 one, the rest all."""
        if self.kind is GK_WEI:
            return 0
        if self.kind in (GK_CHOU_WEI, GK_TI):
            return 1
        return len(self.cards)


_NO_MELDS: Final = arrangements.table_summary(())


class SeatState:
    """One seat: its hand (20 counts), its table melds and its row of unclaimed cards.

    The sums over the melds (``table_huxi``, ``fours``, ``meld_cards``, ``meld_pairs()``)
    and the kinds of its 偎/臭偎 and 碰 melds are plain attributes, computed again
    whenever the melds change: assigning ``melds`` or ``Table.add_meld``/
    ``Table.upgrade_meld`` (the only ways they change). They are read far more often
    than the melds change (each revealed card reads every seat's).
    """

    __slots__ = ("hand", "_melds", "row", "table_huxi", "fours", "meld_cards", "_pairs",
                 "wei_kinds", "peng_kinds", "_table", "_win")
    #: the huxi of the table melds
    table_huxi: int
    #: F: four-card melds (提 + 跑)
    fours: int
    #: cards in the table melds
    meld_cards: int
    #: kinds of the 偎/臭偎 melds, and of the 碰 melds (a 跑 or 提 can join them)
    wei_kinds: tuple[Card, ...]
    peng_kinds: tuple[Card, ...]
    #: the melds as (kind, cards) (``meld_pairs()``)
    _pairs: tuple[tuple[GroupKind, tuple[Card, ...]], ...]
    #: the melds summarised for the win check (``arrangements.table_summary``)
    _table: arrangements.TableSummary | None

    def __init__(self, hand: list[int] | None = None, melds: list[Meld] | None = None,
                 row: list[Card] | None = None) -> None:
        # (``hand`` may be left out, an empty hand, so that a compiled build can copy a
        # seat: ``replay/native.py``)
        self.hand = [0] * NUM_KINDS if hand is None else hand
        self._melds: list[Meld] = [] if melds is None else melds
        #: cards this seat revealed that nobody took: its discards and unclaimed draws
        self.row: list[Card] = [] if row is None else row
        self._win: WinCheck | None = None
        self.melds_changed()

    def __repr__(self) -> str:
        return f"SeatState(hand={self.hand!r}, melds={self._melds!r}, row={self.row!r})"

    @property
    def melds(self) -> list[Meld]:
        return self._melds

    @melds.setter
    def melds(self, melds: list[Meld]) -> None:
        self._melds = melds
        self.melds_changed()

    def meld_added(self, meld: Meld) -> None:
        """``meld`` joins the table: the sums grow by it."""
        self._melds.append(meld)
        c, kind = meld.cards, meld.kind
        self._pairs += ((kind, c),)
        self._table = arrangements.table_plus(self._table, kind, c)
        self.table_huxi += meld.huxi
        self.meld_cards += len(c)
        if kind in FOURS:
            self.fours += 1
        elif kind is GK_PENG:
            self.peng_kinds += (c[0],)
        elif kind is GK_WEI or kind is GK_CHOU_WEI:
            self.wei_kinds += (c[0],)
        self._win = None

    def melds_changed(self) -> None:
        """A meld grew (or the melds were replaced): the sums are computed again, the melds
        added one by one to empty sums (``meld_added``)."""
        melds = list(self._melds)
        self._melds.clear()
        self._pairs = ()
        self._table = _NO_MELDS
        self.table_huxi = self.fours = self.meld_cards = 0
        self.wei_kinds = self.peng_kinds = ()
        for m in melds:
            self.meld_added(m)
        self._win = None

    @property
    def held(self) -> int:
        """H: cards in hand plus cards in table melds."""
        return sum(self.hand) + self.meld_cards

    def meld_of(self, card: Card, kinds: frozenset[GroupKind]) -> Meld | None:
        for m in self._melds:
            if m.cards[0] == card and m.kind in kinds:
                return m
        return None

    def win_check(self) -> WinCheck:
        """``arrangements.wins_with`` on these holdings, for many cards (claim windows)."""
        hand = tuple(self.hand)
        w = self._win
        if w is None or w.hand != hand:  # (``_win`` is dropped when the melds change)
            w = self._win = WinCheck.on_table(self._table, hand)
        return w

    def meld_pairs(self) -> tuple[tuple[GroupKind, tuple[Card, ...]], ...]:
        """The melds as (kind, cards): one tuple object until the melds change."""
        return self._pairs


class Table:
    """Three seats and the stock, built from a deal."""

    __slots__ = ("seats", "stock", "stock_pos", "dealer")

    def __init__(self, deal: Deal | None = None, dealer: int = 0,
                 hands: list[list[int]] | None = None) -> None:
        """``hands``: the dealt hands as counts (``counts_of``), when already counted.
        Without a deal: no seats, no stock (so that a compiled build can copy a table:
        ``replay/native.py``)."""
        if deal is None:
            self.seats: list[SeatState] = []
            self.stock: tuple[Card, ...] = ()
            self.stock_pos = 0
            self.dealer = dealer
            return
        if hands is None:
            hands = [counts_of(h) for h in deal.hands]
        self.seats = [SeatState(h) for h in hands]
        self.stock = deal.stock
        self.stock_pos = 0
        self.dealer = dealer

    # -- the stock
    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def stock_top(self) -> Card | None:
        return self.stock[self.stock_pos] if self.stock_pos < len(self.stock) else None

    def take_top(self) -> Card:
        card = self.stock[self.stock_pos]
        self.stock_pos += 1
        return card

    # -- moves, unchecked
    def add_meld(self, seat: int, meld: Meld) -> None:
        self.seats[seat].meld_added(meld)

    def upgrade_meld(self, meld: Meld, kind: GroupKind, card: Card, seq: int) -> None:
        """A 偎/臭偎/碰 on the table takes the fourth card (提 or 跑)."""
        meld.origin = "peng" if meld.kind is GK_PENG else "wei"
        meld.kind = kind
        meld.cards = meld.cards + (card,)
        meld.seq = seq
        meld.huxi = group_huxi(kind, meld.cards)
        for st in self.seats:  # the seat whose meld it is
            if any(m is meld for m in st.melds):
                st.melds_changed()

    def discard_to_row(self, seat: int, card: Card) -> None:
        self.seats[seat].row.append(card)
