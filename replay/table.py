"""The physical table: hands, melds, discard rows and the stock.

Like python-chess's board, the mutators here apply a move *unchecked*: the
rules (whose turn, what is forced, what is barred) live in the engine and its
rule modules, which decide first and then push the move here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .arrangements import WinCheck
from .cards import Card, counts_of
from .groups import FOURS, GK_CHOU_WEI, GK_PENG, GK_TI, GK_WEI, GroupKind, group_huxi
from .model import Deal


@dataclass(slots=True)
class Meld:
    kind: GroupKind
    cards: tuple[Card, ...]
    seq: int | None
    #: for 提 and 跑: what it was made from ("dealt", "kan", "wei", "peng"); "" otherwise
    origin: str = ""
    huxi: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.huxi = group_huxi(self.kind, self.cards)

    def face_up_count(self) -> int:
        """Cards the other seats see: a 偎 none, a 臭偎 and a 提 one, the rest all."""
        if self.kind is GK_WEI:
            return 0
        if self.kind in (GK_CHOU_WEI, GK_TI):
            return 1
        return len(self.cards)


class SeatState:
    """One seat: its hand (20 counts), its table melds and its row of unclaimed cards.

    The sums over the melds (``table_huxi``, ``fours``, their cards, ``meld_pairs``)
    are computed once and kept until the melds change: assigning ``melds`` or
    ``Table.add_meld``/``Table.upgrade_meld`` (the only ways they change) drops them.
    """

    __slots__ = ("hand", "_melds", "row", "_summary", "_win")

    def __init__(self, hand: list[int], melds: list[Meld] | None = None,
                 row: list[Card] | None = None) -> None:
        self.hand = hand
        self._melds: list[Meld] = [] if melds is None else melds
        #: cards this seat revealed that nobody took: its discards and unclaimed draws
        self.row: list[Card] = [] if row is None else row
        self._summary: _MeldSummary | None = None
        self._win: WinCheck | None = None

    def __repr__(self) -> str:
        return f"SeatState(hand={self.hand!r}, melds={self._melds!r}, row={self.row!r})"

    @property
    def melds(self) -> list[Meld]:
        return self._melds

    @melds.setter
    def melds(self, melds: list[Meld]) -> None:
        self._melds = melds
        self._summary = None
        self._win = None

    def melds_changed(self) -> None:
        """A meld was added or grew: the sums are computed again when next read."""
        self._summary = None
        self._win = None

    def _sums(self) -> _MeldSummary:
        s = self._summary
        if s is None:
            pairs = []
            huxi = fours = cards = 0
            for m in self._melds:
                c, kind = m.cards, m.kind
                pairs.append((kind, c))
                huxi += m.huxi
                cards += len(c)
                if kind in FOURS:
                    fours += 1
            s = self._summary = _MeldSummary(tuple(pairs), huxi, fours, cards)
        return s

    @property
    def fours(self) -> int:
        """F: four-card melds (提 + 跑)."""
        return self._sums().fours

    @property
    def held(self) -> int:
        """H: cards in hand plus cards in table melds."""
        return sum(self.hand) + self._sums().cards

    @property
    def table_huxi(self) -> int:
        return self._sums().huxi

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
            w = self._win = WinCheck(self.meld_pairs(), hand, w)
        return w

    def meld_pairs(self) -> tuple[tuple[GroupKind, tuple[Card, ...]], ...]:
        """The melds as (kind, cards): one tuple object until the melds change."""
        return self._sums().pairs


@dataclass(frozen=True, slots=True)
class _MeldSummary:
    pairs: tuple[tuple[GroupKind, tuple[Card, ...]], ...]
    huxi: int
    fours: int
    cards: int


class Table:
    """Three seats and the stock, built from a deal."""

    __slots__ = ("seats", "stock", "stock_pos", "dealer")

    def __init__(self, deal: Deal, dealer: int) -> None:
        self.seats = [SeatState(counts_of(h)) for h in deal.hands]
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
        st = self.seats[seat]
        st.melds.append(meld)
        st.melds_changed()

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
