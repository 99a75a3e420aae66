"""Every legal action of every seat at a point of the hand (RULES §3–§8).

``legal_actions(state)`` lists, as typed ``Action`` values, what the seats may do
next without breaking a rule: the dealt 提s still to lay, 天胡 at the opening, the
forced 提/偎 of a drawn card and the drawer's 胡 after it, the claims on a revealed
card (胡, the forced 跑, 碰, each 吃 with each complete set of 比 groups), a pass by
each seat that has an option, the wins right after a 提/偎/跑, each discard the seat
to play may make, the 免张 draw, the draw and the end of an exhausted hand. Leaving
an abandoned hand (``end: abandoned``) is always possible and not listed.

An action is an event without its time: ``Action.event()`` is what a log records,
``action_of(event)`` the action a logged event is. ``State.apply`` applies any
event unchecked; the audit can check each logged event against this list
(``replay.audit``, ``check_legality``), so this module and the findings the state
notes are two views of the same rules that the tests hold together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import arrangements
from .cards import Card, next_seat
from .chi import chi_options
from .claims import WEI_KINDS
from .groups import GroupKind, group_huxi
from .model import EndReason, Event, EventType
from .state import Phase, State

Groups = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Action:
    type: EventType
    seat: int | None
    card: Card | None = None
    #: a 吃: the taken group first, then the 比 groups (each sorted, the 比 in order)
    groups: Groups = ()
    reason: EndReason | None = None

    def event(self, t: int | None = None) -> Event:
        return Event(self.type, self.seat, self.card, self.groups, self.reason, t)


def normal_groups(groups: Sequence[Sequence[Card]]) -> Groups:
    if not groups:
        return ()
    return (tuple(sorted(groups[0])), *sorted(tuple(sorted(g)) for g in groups[1:]))


def action_of(e: Event) -> Action:
    """The action a logged event is (its time dropped, its 吃 groups in normal order)."""
    return Action(e.type, e.seat, e.card, normal_groups(e.groups), e.reason)


def legal_actions(state: State) -> list[Action]:
    """Every legal action of every seat now, in a fixed order (see the module doc)."""
    if state.phase is Phase.ENDED:
        return []
    out = _dealt_ti(state)
    phase = state.phase
    if phase is Phase.OPENING:
        out += _opening(state)
    elif phase is Phase.DRAWN:
        out += _drawn(state)
    elif phase is Phase.REVEALED:
        out += _revealed(state)
    else:
        out += _hu_after(state)
        if phase is Phase.DISCARD:
            out += _discard(state, state.turn, state.optional_discard)
        else:
            out += _draw(state, state.turn)
    return sorted(set(out), key=_order)


def _order(a: Action) -> tuple[str, int, int, Groups]:
    return (a.type.value, -1 if a.seat is None else a.seat, -1 if a.card is None else a.card,
            a.groups)


def seats_to_act(state: State) -> tuple[int, ...]:
    """The seats with a legal action (whose turn or whose claim it is)."""
    return tuple(sorted({a.seat for a in legal_actions(state)
                         if a.seat is not None and a.type is not EventType.PASS}))


# --------------------------------------------------------------------------- pieces


def _unreported_four(state: State, seat: int) -> bool:
    """A seat acting while it holds a dealt four not 提'd is 烧提 (RULES §4.3)."""
    hand = state.table.seats[seat].hand
    return any(n == 4 and k not in state.reported_fours[seat] for k, n in enumerate(hand))


def _dealt_ti(state: State) -> list[Action]:
    return [Action(EventType.TI, s, k) for s in range(3)
            for k, n in enumerate(state.table.seats[s].hand) if n == 4]


def _opening(state: State) -> list[Action]:
    mandatory = state.mandatory_seats()
    if mandatory:
        return [Action(EventType.HU, mandatory[0], None)]
    shown = state.log.deal.shown
    out: list[Action] = []
    for s in state.optional_candidates():
        out += [Action(EventType.HU, s, shown), Action(EventType.PASS, s, shown)]
    dealer = state.log.dealer
    if _unreported_four(state, dealer):
        return out
    if state.owes_opening_discard():
        out += _discard(state, dealer, False)
    else:
        out += _draw(state, next_seat(dealer))
    return out


def _discard(state: State, seat: int, optional: bool) -> list[Action]:
    out: list[Action] = []
    if not _unreported_four(state, seat):
        hand = state.table.seats[seat].hand
        out += [Action(EventType.DISCARD, seat, k) for k, n in enumerate(hand) if 0 < n < 3]
    if optional and state.table.stock_left:  # 免张: the next seat draws instead
        out += _draw(state, next_seat(seat))
    return out


def _draw(state: State, seat: int) -> list[Action]:
    top = state.table.stock_top()
    if top is None:
        return [Action(EventType.END, None, reason=EndReason.EXHAUSTED)]
    if _unreported_four(state, seat):
        return []
    return [Action(EventType.DRAW, seat, top)]


def _hu_after(state: State) -> list[Action]:
    ha = state.hu_after
    if ha is None:
        return []
    return [a for s in ha.candidates
            for a in (Action(EventType.HU, s, ha.card), Action(EventType.PASS, s, ha.card))]


def _drawn(state: State) -> list[Action]:
    d = state.drawn
    assert d is not None
    out = [Action(d.forced, d.seat, d.card)]
    if _wins_after_forced_meld(state, d.seat, d.card, d.forced):
        out += [Action(EventType.HU, d.seat, d.card), Action(EventType.PASS, d.seat, d.card)]
    return out


def _wins_after_forced_meld(state: State, seat: int, card: Card, forced: EventType) -> bool:
    """The drawer's 自摸 right after its forced 提/偎: complete, enough huxi, not barred."""
    st = state.table.seats[seat]
    melds = list(st.meld_pairs())
    hand = list(st.hand)
    huxi = st.table_huxi
    wei = st.meld_of(card, WEI_KINDS)
    if forced is EventType.TI and wei is not None:
        i = melds.index((wei.kind, wei.cards))
        melds[i] = (GroupKind.TI, (card,) * 4)
        huxi += group_huxi(GroupKind.TI, (card,) * 4) - wei.huxi
    else:
        kind = GroupKind.TI if forced is EventType.TI else GroupKind.WEI
        n = 4 if forced is EventType.TI else 3
        hand[card] -= n - 1
        melds.append((kind, (card,) * n))
        huxi += group_huxi(kind, (card,) * n)
    if arrangements.best_huxi(melds, hand, None) < state.profile.min_huxi:
        return False
    return state.ledger.hu_bar(seat, card, huxi) is None


def _revealed(state: State) -> list[Action]:
    w = state.window
    assert w is not None
    c = w.card
    out: list[Action] = []
    for s in w.hu:
        out += [Action(EventType.HU, s, c), Action(EventType.PASS, s, c)]
    if w.pao is not None:
        return out + [Action(EventType.PAO, w.pao, c)]
    if w.peng is not None:
        out += [Action(EventType.PENG, w.peng, c), Action(EventType.PASS, w.peng, c)]
    for s in w.chi:
        hand = state.table.seats[s].hand
        out += [Action(EventType.CHI, s, c, (o.taken, *o.bi)) for o in chi_options(hand, c)]
        out.append(Action(EventType.PASS, s, c))
    # nobody claims: the card goes to the row and the next seat draws (RULES §5)
    return out + _draw(state, next_seat(w.src))
