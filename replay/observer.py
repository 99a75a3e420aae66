"""What one seat can know at a point of the hand (OpenSpiel's observer).

``seat_view(state, seat)`` is built from the full ``State`` but holds only what
that seat could see or derive: its own hand, every table meld as the table shows
it (another seat's 偎 face down, a 臭偎 and a 提 with one card up), every discard
row, the shown card, the card revealed now (a drawn card the drawer must 提/偎 is
seen by the drawer alone), the counts (stock, each hand's size), its own 臭 kinds
(臭牌 and 过张) and 臭胡 record, the other seats' 臭牌 (their discards are public),
and its own legal actions. Nothing else of the state is reachable from a view.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, legal_actions
from .cards import Card
from .groups import GroupKind
from .ledger import ChouHu
from .state import Phase, State


@dataclass(frozen=True, slots=True)
class MeldView:
    kind: GroupKind
    #: the cards as the viewer sees them: ``None`` for a face-down card
    cards: tuple[Card | None, ...]
    seq: int | None


@dataclass(frozen=True, slots=True)
class OtherSeat:
    seat: int
    hand_size: int
    melds: tuple[MeldView, ...]
    row: tuple[Card, ...]
    #: kinds it discarded (臭牌 for it): public, since every discard is seen
    chou_pai: frozenset[Card]


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    phase: Phase
    turn: int
    dealer: int
    shown: Card
    #: the card on the table now, if this seat can see it (a revealed card, or its own draw)
    revealed: Card | None
    stock_left: int
    #: own hand as counts per kind
    hand: tuple[int, ...]
    melds: tuple[MeldView, ...]
    row: tuple[Card, ...]
    table_huxi: int
    chou_pai: frozenset[Card]
    guo_zhang: frozenset[Card]
    chou_hu: tuple[ChouHu, ...]
    others: tuple[OtherSeat, ...]
    legal: tuple[Action, ...]


def _melds(state: State, owner: int, viewer: int) -> tuple[MeldView, ...]:
    out = []
    for m in state.table.seats[owner].melds:
        up = len(m.cards) if owner == viewer else m.face_up_count()
        out.append(MeldView(m.kind, m.cards[:up] + (None,) * (len(m.cards) - up), m.seq))
    return tuple(out)


def seat_view(state: State, seat: int) -> SeatView:
    st = state.table.seats[seat]
    led = state.ledger.seats[seat]
    revealed: Card | None = None
    if state.window is not None:
        revealed = state.window.card
    elif state.drawn is not None and state.drawn.seat == seat:
        revealed = state.drawn.card
    others = tuple(
        OtherSeat(s, sum(state.table.seats[s].hand), _melds(state, s, seat),
                  tuple(state.table.seats[s].row), frozenset(state.ledger.seats[s].chou_pai))
        for s in range(3) if s != seat)
    return SeatView(
        seat=seat, phase=state.phase, turn=state.turn, dealer=state.log.dealer,
        shown=state.log.deal.shown, revealed=revealed, stock_left=state.table.stock_left,
        hand=tuple(st.hand), melds=_melds(state, seat, seat), row=tuple(st.row),
        table_huxi=st.table_huxi, chou_pai=frozenset(led.chou_pai),
        guo_zhang=frozenset(led.guo_zhang), chou_hu=tuple(led.chou_hu), others=others,
        legal=tuple(a for a in legal_actions(state) if a.seat == seat))
