"""The physical table: hands, melds, discard rows and the stock.

Like python-chess's board, the mutators here apply a move *unchecked*: the
rules (whose turn, what is forced, what is barred) live in the engine and its
rule modules, which decide first and then push the move here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, counts_of
from .groups import FOURS, GroupKind, group_huxi
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
        if self.kind is GroupKind.WEI:
            return 0
        if self.kind in (GroupKind.CHOU_WEI, GroupKind.TI):
            return 1
        return len(self.cards)


@dataclass(slots=True)
class SeatState:
    hand: list[int]
    melds: list[Meld] = field(default_factory=list)
    #: cards this seat revealed that nobody took: its discards and unclaimed draws
    row: list[Card] = field(default_factory=list)
    _pairs: tuple[tuple[GroupKind, tuple[Card, ...]], ...] = field(default=(), repr=False)
    _pairs_key: tuple[int, int] = field(default=(-1, -1), repr=False)

    @property
    def fours(self) -> int:
        """F: four-card melds (提 + 跑)."""
        return sum(1 for m in self.melds if m.kind in FOURS)

    @property
    def held(self) -> int:
        """H: cards in hand plus cards in table melds."""
        return sum(self.hand) + sum(len(m.cards) for m in self.melds)

    @property
    def table_huxi(self) -> int:
        return sum(m.huxi for m in self.melds)

    def meld_of(self, card: Card, kinds: frozenset[GroupKind]) -> Meld | None:
        for m in self.melds:
            if m.kind in kinds and m.cards[0] == card:
                return m
        return None

    def meld_pairs(self) -> tuple[tuple[GroupKind, tuple[Card, ...]], ...]:
        """The melds as (kind, cards), rebuilt only when a meld was added or grew."""
        key = (len(self.melds), sum(len(m.cards) for m in self.melds))
        if self._pairs_key != key:
            self._pairs = tuple((m.kind, m.cards) for m in self.melds)
            self._pairs_key = key
        return self._pairs


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
        self.seats[seat].melds.append(meld)

    def upgrade_meld(self, meld: Meld, kind: GroupKind, card: Card, seq: int) -> None:
        """A 偎/臭偎/碰 on the table takes the fourth card (提 or 跑)."""
        meld.origin = "peng" if meld.kind is GroupKind.PENG else "wei"
        meld.kind = kind
        meld.cards = meld.cards + (card,)
        meld.seq = seq
        meld.huxi = group_huxi(kind, meld.cards)

    def discard_to_row(self, seat: int, card: Card) -> None:
        self.seats[seat].row.append(card)
