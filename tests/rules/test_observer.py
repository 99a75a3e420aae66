"""A seat's view (replay.observer): what it can know, and nothing more."""

from __future__ import annotations

from replay.cards import parse_card
from replay.logformat import parse_log
from replay.model import EventType
from replay.observer import seat_view
from replay.state import State

from .builder import HandBuilder


def _state(b: HandBuilder) -> State:
    st = State(parse_log(b.build()))
    for e in st.log.events:
        st.apply(e)
    return st


# seat 1 holds a pair of x3 and draws the third: a 偎, face down to the others
WEI_HAND = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x3 x3"


def _after_wei() -> State:
    b = HandBuilder(["d10", WEI_HAND, ""], stock="x3", shown="d10", avoid="x1 x2")
    return _state(b.discard(0, "d10").draw(1).wei(1, "x3"))


def test_own_hand_and_melds_are_seen_others_hands_only_counted() -> None:
    st = _after_wei()
    me, other = seat_view(st, 1), seat_view(st, 0)
    x3 = parse_card("x3")
    assert me.hand == tuple(st.table.seats[1].hand)
    assert me.melds[-1].cards == (x3, x3, x3)
    seen = [o for o in other.others if o.seat == 1][0]
    assert seen.melds[-1].cards == (None, None, None)  # a 偎 is face down
    assert seen.hand_size == sum(st.table.seats[1].hand)
    assert not hasattr(other, "stock") and other.stock_left == st.table.stock_left


def test_chou_kinds_own_in_full_others_only_their_discards() -> None:
    # seat 1 can 吃 x3 (x4 x5) and lets the dealer's x3 go: 过张 for seat 1 only
    b = HandBuilder(["x3 x10", "x4 x5", ""], stock="d9 d8", avoid="x2 x6")
    st = _state(b.discard(0, "x3").draw(1))
    x3 = parse_card("x3")
    me = seat_view(st, 1)
    assert x3 in me.guo_zhang
    third = seat_view(st, 2)
    assert x3 not in third.guo_zhang
    assert [o.chou_pai for o in third.others if o.seat == 0] == [frozenset({x3})]


def test_a_drawn_card_under_a_forced_wei_is_seen_by_the_drawer_only() -> None:
    b = HandBuilder(["d10", WEI_HAND, ""], stock="x3", shown="d10", avoid="x1 x2")
    st = _state(b.discard(0, "d10").draw(1))
    x3 = parse_card("x3")
    assert seat_view(st, 1).revealed == x3
    assert seat_view(st, 0).revealed is None and seat_view(st, 2).revealed is None
    assert {a.type for a in seat_view(st, 1).legal} >= {EventType.WEI}
    assert seat_view(st, 0).legal == ()
