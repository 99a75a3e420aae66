"""The game state: the table of one hand and what it waits for, event by event.

``State(log)`` is the table at the deal of ``log`` (its header, deal and rule
profile; its events are not read). ``apply(event)`` applies the next event *as
logged, unchecked* (python-chess's ``push``): whatever rule the event breaks is
noted in ``findings`` and the event is applied anyway whenever it is physically
possible, so play goes on; a physically impossible event (a card that is not
there, a draw that is not the stock top) raises ``Impossible``. What is legal
at any point is ``replay.actions.legal_actions(state)``; what one seat can know
is ``replay.observer.seat_view(state, seat)``; the audit that walks a log and
writes the verdict is ``replay.audit``.

The public read API (tools and pages use only this): ``phase``, ``turn``,
``window`` (claims on a revealed card), ``drawn`` (the drawer's forced 提/偎),
``hu_after`` (who may win right after a 提/偎/跑), ``optional_discard`` (免张),
``last_actor``, ``mian_used``, ``table``, ``ledger`` (臭牌/过张/臭胡), ``dealt``,
``findings``, ``outcome``, ``expected``, ``is_terminal``, ``returns()``,
``clone()``, ``child(event)``, ``mandatory_seats()``, ``optional_candidates()``,
``owes_opening_discard()``,
``reported_fours`` (dealt fours already found not 提'd), ``applied`` (events so far).

The rules themselves live beside it, one concept a module: ``discard_rule``
(§3), ``opening`` (§4), ``claims`` (§5 and the 过张 rule of §7), ``chi`` (§6),
``ledger`` (§7), ``arrangements`` and ``scoring`` (§8, §9).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from . import arrangements, claims, scoring
from .cards import Card, card_name, counts_of, next_seat
from .chi import ChiProblem, check_chi
from .claims import (
    CL_CHI,
    CL_PAO,
    CL_PENG,
    PENG_KIND,
    WEI_KINDS,
    Claim,
    Window,
    hu_order,
    open_window,
    passed_chances,
    refused_wins,
)
from .discard_rule import (
    OWED_NO,
    OWED_OPTIONAL,
    dealer_owes_opening_discard,
    discard_owed,
    threshold,
)
from .groups import GK_BI, GK_CHI, GK_CHOU_WEI, GK_PAO, GK_PENG, GK_TI, GK_WEI, GroupKind
from .ledger import Ledger
from .model import (
    EV_CHI,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_HU,
    EV_PAO,
    EV_PASS,
    EV_PENG,
    EV_TI,
    EV_WEI,
    EndReason,
    Event,
    EventType,
    Log,
    Outcome,
)
from .opening import dealt_fours, dealt_ti_huxi, mandatory_tian_hu, priority, shown_card_holdings
from .results import Score
from .table import Meld, Table
from .verdict import Code, Finding, Severity


class Phase(StrEnum):
    OPENING = "opening"  # 天胡 and dealt 提, before the dealer's first discard
    DISCARD = "discard"  # ``turn`` owes a discard
    DRAW = "draw"  # ``turn`` draws next
    DRAWN = "drawn"  # the drawer must 提 or 偎 the drawn card
    REVEALED = "revealed"  # claims on ``window.card``
    ENDED = "ended"


# Members read on the hot path, bound once: on Python 3.11 reading a member off its
# enum class goes through ``EnumType.__getattr__``'s slot, about 8x a global read
# (docs/performance.md, third pass).
PH_DISCARD: Final = Phase.DISCARD
PH_DRAW: Final = Phase.DRAW
PH_DRAWN: Final = Phase.DRAWN
PH_ENDED: Final = Phase.ENDED
PH_OPENING: Final = Phase.OPENING
PH_REVEALED: Final = Phase.REVEALED


@dataclass(slots=True)
class HuAfter:
    """After a 提/偎 of one's own draw or a 跑: who may still win on that card.
    (Every field has a default so that a compiled build can copy it: replay/native.py.)"""

    card: Card = 0
    seq: int = 0  # the event that revealed or drew the card
    seat: int = 0  # whose meld now holds the card
    #: seats that could win now, highest priority first
    candidates: list[int] = field(default_factory=list)
    src: int = 0
    drawn: bool = False
    last_card: bool = False
    table_huxi: tuple[int, int, int] = (0, 0, 0)
    #: the 跑'ing seat's melds and hand before its 跑, when it could win on the card then
    pre: Pre | None = None
    #: a 跑'd card was revealed; a 提'd/偎'd one was not, so passing a win on it is no 臭胡
    revealed: bool = True
    #: seats holding a complete hand with the card whose win the ledger bars
    barred: tuple[int, ...] = ()


@dataclass(slots=True)
class Drawn:
    # (defaults so that a compiled build can copy it: replay/native.py)
    seat: int = 0
    card: Card = 0
    seq: int = 0
    forced: EventType = EventType.TI  # TI or WEI


#: a seat's melds and hand before its 跑 (for a 破跑胡 logged as 跑 then 胡)
Pre = tuple[Sequence[tuple[GroupKind, tuple[Card, ...]]], list[int]]


class Impossible(Exception):
    """The event cannot be applied: the hand cannot be re-executed past it."""


class State:
    def __init__(self, log: Log | None = None) -> None:
        """The state at the deal of ``log``. ``State()`` is an empty shell that only
        ``copy.deepcopy`` fills (a compiled build copies a state through it:
        ``replay/native.py``); use ``clone``."""
        if log is None:
            return
        self.log = log
        self.profile = log.profile
        #: rule breaks noted while applying events, in order
        self.findings: list[Finding] = []
        #: events applied so far (the ``seq`` of the next one)
        self.applied = 0
        self.ledger = Ledger(self.profile)
        self.dealt = [counts_of(h) for h in log.deal.hands]
        self.table = Table(log.deal, log.dealer, [list(c) for c in self.dealt])
        self.phase = PH_OPENING
        self.turn = log.dealer
        self.optional_discard = False
        self.last_actor: int | None = None
        self.window: Window | None = None
        self.drawn: Drawn | None = None
        self.hu_after: HuAfter | None = None
        #: each seat's dealt fours (the only cards a hand can hold four of)
        self.fours_dealt = [tuple(dealt_fours(c)) if 4 in c else () for c in self.dealt]
        self.mian_pending = [s != log.dealer and len(self.fours_dealt[s]) >= 2 for s in range(3)]
        self.mian_used = [False, False, False]
        self.reported_fours: list[set[Card]] = [set(), set(), set()]
        self.outcome: Outcome | None = None
        self.expected: Score | None = None
        #: seats that made a 吃, 碰 or 跑 (no 听胡 for them, RULES §11)
        self.took = [False, False, False]
        #: ``took`` before each seat's latest 跑 (a win judged on the holdings before it)
        self.took_before_pao = [False, False, False]
        self.invalid = False
        self._optional: list[int] | None = None

    # ------------------------------------------------------------------ helpers
    def find(self, seq: int | None, seat: int | None, code: Code, message: str,
             refs: tuple[int, ...] = (), invalid: bool = False) -> None:
        sev = Severity.INVALID if invalid else Severity.VIOLATION
        self.findings.append(Finding(seq, seat, code, sev, message, refs))

    def stop(self, seq: int | None, seat: int | None, code: Code, message: str) -> None:
        self.find(seq, seat, code, message, invalid=True)
        self.invalid = True
        raise Impossible

    def end(self, outcome: Outcome | None, expected: Score | None) -> None:
        self.phase = PH_ENDED
        self.outcome = outcome
        self.expected = expected
        self.window = None
        self.hu_after = None

    def score(self, seat: int, card: Card | None, *, zi_mo: bool, hai_di: bool,
              discarder: int | None,
              pre: Pre | None = None,
              ) -> Score | None:
        st = self.table.seats[seat]
        melds, hand = pre if pre is not None else (st.meld_pairs(), st.hand)
        arrs = scoring.candidates(self.profile, melds, hand, card)
        holdings = arrangements.holdings(melds, hand, card)
        facts = self.win_facts(seat, zi_mo=zi_mo, opening=False, hai_di=hai_di,
                               discarder=discarder,
                               shua_hou=card is not None and sum(hand) == 1,
                               took=self.took_before_pao[seat] if pre is not None else None)
        return scoring.score_win(self.profile, arrs, holdings, facts)

    def win_facts(self, seat: int, *, zi_mo: bool, opening: bool, hai_di: bool,
                  discarder: int | None, shua_hou: bool,
                  took: bool | None = None) -> scoring.WinFacts:
        """What the replayed hand says about a win (never the log's claims). ``took``:
        whether the seat made a 吃/碰/跑 before (default: so far)."""
        match = self.log.match
        if took is None:
            took = self.took[seat]
        return scoring.WinFacts(
            seat, zi_mo, opening, hai_di, discarder, self.turned_card(),
            dealer=self.log.dealer, ting=not took, shua_hou=shua_hou,
            drawn_before=match.drawn_before if match is not None else 0)

    def turned_card(self) -> Card | None:
        """The 垛 card: the next stock card, or the last one when none is left."""
        top = self.table.stock_top()
        if top is None and self.table.stock:
            return self.table.stock[-1]
        return top

    def first_action(self, seat: int, seq: int) -> None:
        """A seat acts: any dealt four still in its hand was not 提'd (烧提)."""
        fours = self.fours_dealt[seat]
        if not fours:  # (a hand never gains cards: only dealt fours can be four alike)
            return
        hand = self.table.seats[seat].hand
        for k in fours:
            if hand[k] == 4 and k not in self.reported_fours[seat]:
                self.reported_fours[seat].add(k)
                self.find(seq, seat, Code.TI_MISSED,
                          f"seat {seat} holds four {card_name(k)} and acted before 提'ing them")

    # ------------------------------------------------------------------ applying events
    def apply(self, e: Event) -> None:
        """Apply the next event as logged (see the module doc): each phase's handler
        (``HANDLERS``) consumes it, or changes the phase and hands it on."""
        i = self.applied
        self.applied = i + 1
        if self.phase is PH_ENDED:
            self.stop(i, e.seat, Code.EVENT_AFTER_END, "the hand had already ended")
        t = e.type
        if t is EV_END and e.reason is EndReason.ABANDONED:
            self.end(Outcome.ABANDONED, scoring.drawn_score("abandoned"))
            return
        if t is EV_TI and e.seat is not None and e.card is not None and \
                self.table.seats[e.seat].hand[e.card] == 4:
            self.dealt_ti(i, e.seat, e.card)
            return
        handlers = HANDLERS
        if handlers[self.phase](self, i, e):
            return
        for _ in range(3):
            if handlers[self.phase](self, i, e):
                return
        raise AssertionError("event not consumed")  # pragma: no cover

    def clone(self) -> State:
        """An independent copy (the log and the profile are shared: they never change)."""
        memo: dict[int, object] = {id(self.log): self.log, id(self.profile): self.profile}
        return copy.deepcopy(self, memo)

    def child(self, e: Event) -> State:
        """A copy with ``e`` applied (for searches: perft, what-if analyses)."""
        nxt = self.clone()
        nxt.apply(e)
        return nxt

    @property
    def is_terminal(self) -> bool:
        return self.phase is PH_ENDED

    def returns(self) -> tuple[int, int, int]:
        """Each seat's score by the rules (the expected one); zeros while none is known."""
        if self.expected is None:
            return (0, 0, 0)
        return self.expected.scores

    # ------------------------------------------------------------------ opening
    def dealt_ti(self, seq: int, seat: int, card: Card) -> None:
        st = self.table.seats[seat]
        st.hand[card] = 0
        self.table.add_meld(seat, Meld(GK_TI, (card,) * 4, seq, "dealt"))

    def optional_candidates(self) -> list[int]:
        """Seats that could win 天胡 on the shown card, in priority order."""
        if self._optional is None:
            self._optional = []
            for s in priority(self.log.dealer):
                melds, hand, card = shown_card_holdings(self.log.deal, self.log.dealer, s,
                                                        self.dealt[s])
                if arrangements.reaches(melds, hand, card, self.profile.min_huxi):
                    self._optional.append(s)
        return self._optional

    def refused_tian_hu(self, seat: int) -> None:
        """A 天胡 on the shown card passed: 臭胡 at the huxi of the seat's dealt 提s."""
        self.ledger.refused_win(seat, self.log.deal.shown, dealt_ti_huxi(self.dealt[seat]),
                                None, "天胡 on the shown card")

    def owes_opening_discard(self) -> bool:
        """The dealer discards first unless its dealt fours say otherwise (§3)."""
        return dealer_owes_opening_discard(len(self.fours_dealt[self.log.dealer]))

    def mandatory_seats(self) -> list[int]:
        return [s for s in priority(self.log.dealer)
                if mandatory_tian_hu(self.profile, self.dealt[s])]

    def on_opening(self, i: int, e: Event) -> bool:
        if e.type is EV_PASS:
            return True
        if e.type is EV_HU:
            assert e.seat is not None
            if e.card is None:
                self.mandatory_hu(i, e.seat)
            else:
                self.shown_card_hu(i, e.seat, e.card)
            return True
        mandatory = self.mandatory_seats()
        if mandatory:
            self.find(i, mandatory[0], Code.TIAN_HU_MISSED,
                      f"seat {mandatory[0]}'s dealt cards make a mandatory 天胡")
        else:
            for s in self.optional_candidates():
                self.refused_tian_hu(s)
        dealer = self.log.dealer
        self.first_action(dealer, i)
        if self.owes_opening_discard():
            self.phase, self.turn = PH_DISCARD, dealer
        else:
            self.phase, self.turn = PH_DRAW, next_seat(dealer)
            self.last_actor = dealer
        return False

    def mandatory_hu(self, i: int, seat: int) -> None:
        mandatory = self.mandatory_seats()
        if seat not in mandatory:
            self.find(i, seat, Code.HU_INVALID,
                      f"seat {seat}'s dealt cards hold neither {self.profile.tian_hu_fours} fours "
                      f"nor {self.profile.tian_hu_threes} threes: no mandatory 天胡")
            self.end(Outcome.HU, None)
            return
        if mandatory[0] != seat:
            self.find(i, seat, Code.PRIORITY_VIOLATED,
                      f"seat {mandatory[0]} has a mandatory 天胡 too and comes first",
                      ())
        facts = self.win_facts(seat, zi_mo=True, opening=True, hai_di=False, discarder=None,
                               shua_hou=False)
        self.end(Outcome.HU, scoring.score_mandatory_tian_hu(
            self.profile, seat, self.dealt[seat], turned=self.turned_card(), facts=facts))

    def shown_card_hu(self, i: int, seat: int, card: Card) -> None:
        deal = self.log.deal
        if card != deal.shown:
            self.find(i, seat, Code.HU_INVALID,
                      f"a 天胡 at the opening is won on the shown card {card_name(deal.shown)}")
            self.end(Outcome.HU, None)
            return
        mandatory = self.mandatory_seats()
        if mandatory:
            self.find(i, seat, Code.PRIORITY_VIOLATED,
                      f"seat {mandatory[0]}'s mandatory 天胡 comes before any 天胡 "
                      "on the shown card")
        melds, hand, free = shown_card_holdings(deal, self.log.dealer, seat, self.dealt[seat])
        holdings = list(self.dealt[seat])
        if seat != self.log.dealer:
            holdings[card] += 1
        facts = self.win_facts(seat, zi_mo=True, opening=True, hai_di=False, discarder=None,
                               shua_hou=False)
        expected = scoring.score_win(
            self.profile, scoring.candidates(self.profile, melds, hand, free), holdings, facts)
        self.ledger.check_hu(seat, card, 0, i)
        if expected is None:
            self.find(i, seat, Code.HU_INVALID,
                      f"seat {seat}'s cards and the shown card are not a winning hand of "
                      f"{self.profile.min_huxi} huxi or more")
        else:
            cands = self.optional_candidates()
            for s in cands[: cands.index(seat)] if seat in cands else []:
                self.refused_tian_hu(s)
        self.end(Outcome.HU, expected)

    # ------------------------------------------------------------------ turns
    def close_hu_after(self) -> None:
        ha = self.hu_after
        if ha is None:
            return
        self.hu_after = None
        if not ha.revealed:
            return  # RULES §7: a 臭胡 is a win passed on a *revealed* card
        for s in ha.candidates:
            self.ledger.refused_win(s, ha.card, ha.table_huxi[s], ha.seq, "on the revealed card")

    def on_discard_phase(self, i: int, e: Event) -> bool:
        if self.hu_after is not None:
            if e.type is EV_HU:
                self.hu_after_win(i, e)
                return True
            self.close_hu_after()
        p = self.turn
        if e.type is EV_DISCARD:
            assert e.seat is not None and e.card is not None
            if e.seat != p:
                self.find(i, e.seat, Code.OUT_OF_TURN, f"seat {p} owed the discard")
            self.discard(i, e.seat, e.card)
            return True
        if e.type in (EV_DRAW, EV_END):
            if self.optional_discard and e.type is EV_DRAW:
                self.mian_used[p], self.mian_pending[p] = True, False
                self.ledger.mian_zhang(p, i, ())
            else:
                self.find(i, p, Code.DISCARD_MISSING,
                          f"seat {p} owed a discard after its intake")
            self.phase, self.turn, self.last_actor = PH_DRAW, next_seat(p), p
            return False
        return self.no_window(i, e)

    def on_draw_phase(self, i: int, e: Event) -> bool:
        if self.hu_after is not None:
            if e.type is EV_HU:
                self.hu_after_win(i, e)
                return True
            self.close_hu_after()
        if e.type is EV_DRAW:
            self.draw(i, e)
            return True
        if e.type is EV_DISCARD:
            assert e.seat is not None and e.card is not None
            if e.seat == self.last_actor:
                self.find(i, e.seat, Code.DISCARD_NOT_OWED,
                          f"seat {e.seat} owed no discard (八块后打牌): seat {self.turn} draws")
            else:
                self.find(i, e.seat, Code.OUT_OF_TURN, f"seat {self.turn} draws next")
            self.discard(i, e.seat, e.card)
            return True
        if e.type is EV_END:
            if self.table.stock_left:
                self.find(i, None, Code.END_INVALID,
                          f"the hand ended as exhausted with {self.table.stock_left} cards "
                          "left in the stock")
            self.end(Outcome.EXHAUSTED, scoring.drawn_score("exhausted"))
            return True
        return self.no_window(i, e)

    def no_window(self, i: int, e: Event) -> bool:
        if e.type is EV_PASS:
            return True
        if e.type is EV_HU:
            self.find(i, e.seat, Code.HU_INVALID, "there is no card to win on here")
            self.end(Outcome.HU, None)
            return True
        self.stop(i, e.seat, Code.CLAIM_INVALID,
                  f"there is no revealed card to {e.type} here")
        return True  # pragma: no cover

    def discard(self, i: int, seat: int, card: Card) -> None:
        st = self.table.seats[seat]
        if st.hand[card] == 0:
            self.stop(i, seat, Code.CARD_NOT_HELD, f"seat {seat} holds no {card_name(card)}")
        self.first_action(seat, i)
        if st.hand[card] == 3:
            self.find(i, seat, Code.KAN_SPLIT,
                      f"{card_name(card)} is a 坎 in seat {seat}'s hand, never split")
        st.hand[card] -= 1
        self.ledger.discarded(seat, card, i)
        self.open(card, seat, False, i)

    def draw(self, i: int, e: Event) -> None:
        assert e.seat is not None and e.card is not None
        seat, card = e.seat, e.card
        top = self.table.stock_top()
        if top is None:
            self.stop(i, seat, Code.DRAW_MISMATCH, "the stock is empty")
        elif card != top:
            self.stop(i, seat, Code.DRAW_MISMATCH,
                      f"drew {card_name(card)} but the top of the stock is {card_name(top)}")
        if seat != self.turn:
            self.find(i, seat, Code.OUT_OF_TURN, f"seat {self.turn} draws next")
        self.first_action(seat, i)
        self.table.take_top()
        st = self.table.seats[seat]
        if st.hand[card] == 3 or card in st.wei_kinds:
            self.drawn, self.phase = Drawn(seat, card, i, EV_TI), PH_DRAWN
        elif st.hand[card] == 2:
            self.drawn, self.phase = Drawn(seat, card, i, EV_WEI), PH_DRAWN
        else:
            self.open(card, seat, True, i)

    def open(self, card: Card, src: int, drawn: bool, seq: int) -> None:
        self.window = open_window(self.table, self.ledger, self.profile, self.mian_used,
                                  card, src, drawn, seq)
        self.phase = PH_REVEALED

    # ------------------------------------------------------------------ forced 提/偎
    def on_drawn(self, i: int, e: Event) -> bool:
        d = self.drawn
        assert d is not None
        if e.type is EV_PASS:
            return True
        mine = e.seat == d.seat and e.card == d.card
        if mine and e.type in (EV_TI, EV_WEI):
            if e.type is not d.forced:
                what = "提" if d.forced is EV_TI else "偎"
                if e.type is EV_TI or self.table.seats[d.seat].hand[d.card] < 2:
                    self.stop(i, d.seat, Code.CARD_NOT_HELD,
                              f"seat {d.seat} cannot {e.type} {card_name(d.card)}: "
                              f"it had to {what}")
                self.find(i, d.seat, Code.TI_MISSED,
                          f"seat {d.seat} had to 提 {card_name(d.card)}, not 偎 it", (d.seq,))
            self.meld_drawn(i, d, e.type)
            return True
        if mine and e.type is EV_HU:
            self.meld_drawn(i, d, d.forced)  # the forced meld is implied by the win
            self.hu_after = None
            self.judge_win(i, d.seat, d.card, free=False, zi_mo=True,
                           last_card=self.table.stock_left == 0, discarder=None,
                           table_huxi=self.table.seats[d.seat].table_huxi)
            return True
        if e.type is EV_HU:
            self.find(i, e.seat, Code.HU_INVALID,
                      f"{card_name(d.card)} had to be 提'd or 偎'd by seat {d.seat}: "
                      "nobody else may win on it", (d.seq,))
            self.end(Outcome.HU, None)
            return True
        code = Code.TI_MISSED if d.forced is EV_TI else Code.WEI_MISSED
        what = "提" if d.forced is EV_TI else "偎"
        self.find(i, d.seat, code,
                  f"seat {d.seat} drew {card_name(d.card)} and had to {what} it", (d.seq,))
        self.drawn = None
        self.open(d.card, d.seat, True, d.seq)
        return False

    def meld_drawn(self, i: int, d: Drawn, how: EventType) -> None:
        st = self.table.seats[d.seat]
        self.drawn = None
        if how is EV_TI:
            wei = st.meld_of(d.card, WEI_KINDS)
            if wei is not None:
                self.table.upgrade_meld(wei, GK_TI, d.card, i)
            else:
                st.hand[d.card] -= 3
                self.table.add_meld(d.seat, Meld(GK_TI, (d.card,) * 4, i, "kan"))
            claim = GK_TI
        else:
            st.hand[d.card] -= 2
            chou = d.card in self.ledger.seats[d.seat].passed_peng
            kind = GK_CHOU_WEI if chou else GK_WEI
            self.table.add_meld(d.seat, Meld(kind, (d.card,) * 3, i))
            if chou:
                self.ledger.chou_wei(d.seat, d.card, i)
            claim = GK_WEI
        self.after_intake(d.seat, claim, d.card, src=d.seat, drawn=True, seq=d.seq,
                          others=[], table_huxi=None)

    # ------------------------------------------------------------------ claims
    def on_revealed(self, i: int, e: Event) -> bool:
        w = self.window
        assert w is not None
        if e.type is EV_PASS:
            if e.card == w.card and e.seat is not None:
                w.passes.add(e.seat)
            return True
        if e.type is EV_HU:
            self.window_win(i, e, w)
            return True
        if e.type in (EV_PAO, EV_PENG, EV_CHI):
            assert e.seat is not None and e.card is not None
            if e.card != w.card:
                self.stop(i, e.seat, Code.CLAIM_INVALID,
                          f"{card_name(e.card)} is not the revealed card {card_name(w.card)}")
            self.first_action(e.seat, i)
            if e.type is EV_PAO:
                self.pao(i, e.seat, w)
            elif e.type is EV_PENG:
                self.peng(i, e.seat, w)
            else:
                self.chi(i, e.seat, e.groups, w)
            return True
        self.close_unclaimed(i, w)
        return False

    def close_unclaimed(self, i: int, w: Window) -> None:
        if w.pao is not None:
            self.find(i, w.pao, Code.PAO_MISSED,
                      f"seat {w.pao} had to 跑 {card_name(w.card)} (走跑)", (w.seq,))
        self.record_passes(w, None, None)
        self.table.discard_to_row(w.src, w.card)
        self.window = None
        self.phase, self.turn, self.last_actor = PH_DRAW, next_seat(w.src), None

    def record_passes(self, w: Window, taker: int | None, claim: Claim | None) -> None:
        if w.peng is not None or w.chi:
            for seat, could_peng in passed_chances(w, taker, claim):
                self.ledger.passed(seat, w.card, w.seq, could_peng,
                                   "吃/碰" if could_peng else "吃")
        if w.hu and claim is not CL_PAO:
            for s in refused_wins(w, None):
                self.ledger.refused_win(s, w.card, w.table_huxi[s], w.seq, "on the revealed card")

    def window_win(self, i: int, e: Event, w: Window) -> None:
        assert e.seat is not None
        seat = e.seat
        if e.card != w.card:
            self.find(i, seat, Code.HU_INVALID,
                      f"the revealed card is {card_name(w.card)}, not {_name(e.card)}")
            self.end(Outcome.HU, None)
            return
        if not w.drawn and (not self.profile.hu_on_discard or seat == w.src):
            self.find(i, seat, Code.HU_INVALID,
                      f"the {self.profile.name} rules allow no win on a discard"
                      if not self.profile.hu_on_discard else "no win on one's own discard",
                      (w.seq,))
            self.end(Outcome.HU, None)
            return
        for s in refused_wins(w, seat):
            self.ledger.refused_win(s, w.card, w.table_huxi[s], w.seq, "on the revealed card")
        self.judge_win(i, seat, w.card, free=True, zi_mo=w.drawn and w.src == seat,
                       last_card=w.last_card, discarder=None if w.drawn else w.src,
                       table_huxi=w.table_huxi[seat])

    def judge_win(self, i: int, seat: int, card: Card, *, free: bool, zi_mo: bool,
                  last_card: bool, discarder: int | None, table_huxi: int,
                  pre: Pre | None = None,
                  ) -> None:
        bar = self.ledger.check_hu(seat, card, table_huxi, i)
        expected = self.score(seat, card if free else None, zi_mo=zi_mo, hai_di=last_card,
                              discarder=discarder)
        if expected is None and pre is not None:
            # 破跑胡 logged as 跑 then 胡: the win it could take before its 跑
            expected = self.score(seat, card, zi_mo=zi_mo, hai_di=last_card,
                                  discarder=discarder, pre=pre)
        if expected is None:
            self.find(i, seat, Code.HU_INVALID,
                      f"seat {seat}'s holdings with {card_name(card)} are not a winning hand "
                      f"of {self.profile.min_huxi} huxi or more")
        elif bar is not None:
            self.find(i, seat, bar[0], bar[1], bar[2])
        self.end(Outcome.HU, expected)

    def hu_after_win(self, i: int, e: Event) -> None:
        ha = self.hu_after
        assert ha is not None and e.seat is not None
        seat = e.seat
        if e.card != ha.card or (seat not in ha.candidates and seat not in ha.barred):
            self.hu_after = None
            self.find(i, seat, Code.HU_INVALID,
                      f"seat {seat} cannot win on {_name(e.card)} here",
                      (ha.seq,))
            self.end(Outcome.HU, None)
            return
        if not ha.drawn and not self.profile.hu_on_discard:
            self.hu_after = None
            self.find(i, seat, Code.HU_INVALID,
                      f"the {self.profile.name} rules allow no win on a discard", (ha.seq,))
            self.end(Outcome.HU, None)
            return
        order = hu_order(ha.src, ha.drawn)
        for s in ha.candidates:
            if s != seat and order.index(s) < order.index(seat):
                self.ledger.refused_win(s, ha.card, ha.table_huxi[s], ha.seq,
                                        "on the revealed card")
        self.hu_after = None
        placed = seat == ha.seat
        self.judge_win(i, seat, ha.card, free=not placed, zi_mo=ha.drawn and ha.src == seat,
                       last_card=ha.last_card, discarder=None if ha.drawn else ha.src,
                       table_huxi=ha.table_huxi[seat], pre=ha.pre if placed else None)

    def pao(self, i: int, seat: int, w: Window) -> None:
        st = self.table.seats[seat]
        self.took_before_pao[seat] = self.took[seat]
        self.took[seat] = True
        card = w.card
        pre = (st.meld_pairs(), list(st.hand)) if seat in w.hu else None
        wei = st.meld_of(card, WEI_KINDS)
        peng = st.meld_of(card, PENG_KIND)
        if st.hand[card] < 3 and wei is None and peng is None:
            self.stop(i, seat, Code.CARD_NOT_HELD,
                      f"seat {seat} holds no 坎, 偎 or 碰 of {card_name(card)} to 跑")
        if seat != w.pao:
            why = "a 碰 is never 跑'd from a discard" if peng is not None and not w.drawn \
                else "no 跑 from one's own card"
            self.find(i, seat, Code.CLAIM_INVALID, why, (w.seq,))
        if st.hand[card] >= 3:
            st.hand[card] -= 3
            self.table.add_meld(seat, Meld(GK_PAO, (card,) * 4, i, "kan"))
        else:
            meld = wei if wei is not None else peng
            assert meld is not None
            self.table.upgrade_meld(meld, GK_PAO, card, i)
        self.window = None
        self.after_intake(seat, GK_PAO, card, src=w.src, drawn=w.drawn, seq=w.seq,
                          others=[s for s in w.hu if s != seat], table_huxi=w.table_huxi,
                          pre=pre, last_card=w.last_card)

    def peng(self, i: int, seat: int, w: Window) -> None:
        st = self.table.seats[seat]
        self.took[seat] = True
        card = w.card
        if st.hand[card] < 2:
            self.stop(i, seat, Code.CARD_NOT_HELD,
                      f"seat {seat} holds no pair of {card_name(card)}")
        bar = self.ledger.check_take(seat, card, i, "碰")
        if seat == w.src:
            self.find(i, seat, Code.CLAIM_INVALID, "no 碰 of one's own card", (w.seq,))
        elif w.pao == seat:
            self.find(i, seat, Code.PAO_MISSED,
                      f"seat {seat} holds a 坎 of {card_name(card)} and had to 跑 it", (w.seq,))
        elif self.mian_used[seat]:
            self.find(i, seat, Code.PENG_NOT_ALLOWED, f"seat {seat} took 免张: no more 碰")
        elif bar is not None:
            self.find(i, seat, bar[0],
                      f"seat {seat} may not 碰 {card_name(card)}: 臭 since event {bar[1]}",
                      (bar[1],))
        self.record_passes(w, seat, CL_PENG)
        st.hand[card] -= 2
        self.table.add_meld(seat, Meld(GK_PENG, (card,) * 3, i))
        self.window = None
        self.after_intake(seat, GK_PENG, card, src=w.src, drawn=w.drawn, seq=w.seq,
                          others=[], table_huxi=None)

    def chi(self, i: int, seat: int, groups: tuple[tuple[Card, ...], ...], w: Window) -> None:
        st = self.table.seats[seat]
        self.took[seat] = True
        card = w.card
        if not groups or card not in groups[0]:
            self.stop(i, seat, Code.CLAIM_INVALID,
                      f"the first 吃 group must hold the taken card {card_name(card)}")
        problem, why = check_chi(st.hand, card, groups)
        if problem is ChiProblem.NOT_HELD:
            self.stop(i, seat, Code.CARD_NOT_HELD, f"seat {seat}: {why}")
        bar = self.ledger.check_take(seat, card, i, "吃")
        if seat not in w.chi_order:
            self.find(i, seat, Code.CHI_NOT_ALLOWED,
                      f"only seat {' or '.join(map(str, w.chi_order))} may 吃 this card", (w.seq,))
        elif w.pao == seat:
            self.find(i, seat, Code.PAO_MISSED,
                      f"seat {seat} holds a 坎 of {card_name(card)} and had to 跑 it", (w.seq,))
        elif problem in (ChiProblem.SHAPE, ChiProblem.KAN, ChiProblem.BI_IMPOSSIBLE):
            self.find(i, seat, Code.CHI_NOT_ALLOWED, why, (w.seq,))
        elif self.mian_used[seat]:
            self.find(i, seat, Code.CHI_NOT_ALLOWED, f"seat {seat} took 免张: no more 吃")
        else:
            if bar is not None:
                self.find(i, seat, bar[0],
                          f"seat {seat} may not 吃 {card_name(card)}: 臭 since event {bar[1]}",
                          (bar[1],))
            if problem is ChiProblem.BI_MISSING:
                self.find(i, seat, Code.BI_MISSING, f"烧比: {why}", (w.seq,))
        if w.pao is not None and w.pao != seat:
            # two seats broke two rules: the forced 跑 was skipped, and a 吃 took the card
            self.find(i, w.pao, Code.PAO_MISSED,
                      f"seat {w.pao} had to 跑 {card_name(card)} (走跑)", (w.seq,))
            self.find(i, seat, Code.PRIORITY_VIOLATED,
                      f"seat {w.pao}'s forced 跑 comes before any 吃", (w.seq,))
        self.record_passes(w, seat, CL_CHI)
        first = list(groups[0])
        first.remove(card)
        for k in first:
            st.hand[k] -= 1
        for g in groups[1:]:
            for k in g:
                st.hand[k] -= 1
        self.table.add_meld(seat, Meld(GK_CHI, tuple(groups[0]), i))
        for g in groups[1:]:
            self.table.add_meld(seat, Meld(GK_BI, tuple(g), i))
        self.window = None
        self.after_intake(seat, GK_CHI, card, src=w.src, drawn=w.drawn, seq=w.seq,
                          others=[], table_huxi=None)

    # ------------------------------------------------------------------ after an intake
    def after_intake(self, seat: int, kind: GroupKind, card: Card, *, src: int, drawn: bool,
                     seq: int, others: list[int], table_huxi: tuple[int, int, int] | None,
                     pre: Pre | None = None,
                     last_card: bool | None = None) -> None:
        """Who plays next after an intake (§3), and who may still win on the card."""
        st = self.table.seats[seat]
        chi_or_peng = kind in (GK_CHI, GK_PENG)
        ready = False
        if chi_or_peng and self.mian_pending[seat] and self.profile.mian_zhang == "when_ready" \
                and st.held == threshold(st.fours):
            ready = st.win_check().ready(self.profile.min_huxi)
        owed = discard_owed(self.profile, st.held, st.fours, mian_pending=self.mian_pending[seat],
                            chi_or_peng=chi_or_peng, ready=ready)
        if owed is not OWED_NO and 1 not in st.hand and 2 not in st.hand:
            owed = OWED_NO  # nothing may be discarded: only 坎 cards left (docs/rules.md)
        if owed is OWED_NO:
            self.phase, self.turn = PH_DRAW, next_seat(seat)
        else:
            self.phase, self.turn = PH_DISCARD, seat
        self.optional_discard = owed is OWED_OPTIONAL
        self.last_actor = seat
        if kind not in (GK_TI, GK_WEI, GK_PAO):
            return
        if last_card is None:
            last_card = drawn and self.table.stock_left == 0
        allowed = drawn or self.profile.hu_on_discard  # a 跑 of a discard is a discard
        complete = allowed and st.win_check().complete(self.profile.min_huxi)
        own_can = complete and self.ledger.hu_bar(seat, card, st.table_huxi) is None
        pre = pre if allowed else None
        now = list(table_huxi) if table_huxi is not None else [
            s.table_huxi for s in self.table.seats]
        order = hu_order(src, drawn)
        # complete hands the ledger bars: a win logged here is judged (臭胡, 过张), and
        # letting the card go is no refusal
        barred = [seat] if complete and not own_can and pre is None else []
        if kind is GK_PAO and allowed:  # 破跑胡 by a seat that may not win
            barred += [s for s in order if s != seat and s not in others
                       and self.ledger.hu_bar(s, card, now[s]) is not None
                       and claims.win_huxi(self.table, s, card) >= self.profile.min_huxi]
        if own_can or pre is not None or seat in barred:
            now[seat] = st.table_huxi  # the seat could win after its meld (docs/rules.md 3)
        mine = {seat} if own_can or pre is not None else set()
        cands = sorted(set(others) | mine, key=order.index)
        if cands or barred:
            self.hu_after = HuAfter(card, seq, seat, cands, src, drawn, last_card,
                                    (now[0], now[1], now[2]), pre, kind is GK_PAO,
                                    tuple(barred))

    # ------------------------------------------------------------------ the end
    def finish(self) -> None:
        """The log ends here: a drawn hand, or ``log_truncated``."""
        n = self.applied
        if self.phase is PH_ENDED:
            return
        self.close_hu_after()
        w = self.window
        if self.phase is PH_REVEALED and w is not None and w.pao is None \
                and self.table.stock_left == 0:
            self.close_unclaimed(n, w)
        if self.phase is PH_DRAW and self.table.stock_left == 0:
            self.end(Outcome.EXHAUSTED, scoring.drawn_score("exhausted"))
            return
        self.find(n, None, Code.LOG_TRUNCATED,
                  f"the log stops while the hand goes on ({self.waiting_for()})")
        self.end(None, None)

    def waiting_for(self) -> str:
        if self.phase is PH_DISCARD:
            return f"seat {self.turn} owes a discard"
        if self.phase is PH_DRAW:
            return f"seat {self.turn} draws next"
        if self.phase is PH_DRAWN and self.drawn is not None:
            return f"seat {self.drawn.seat} must 提/偎 {card_name(self.drawn.card)}"
        if self.phase is PH_REVEALED and self.window is not None:
            return f"claims on {card_name(self.window.card)} are open"
        return "the opening is not over"


#: what each phase does with an event; False: the phase changed, dispatch again. The
#: functions, not a state's bound methods: a state holding its own bound methods is a
#: reference cycle, and the whole hand (log, tables, decisions) would wait for the cycle
#: collector instead of going when its last reference does.
HANDLERS: Final[dict[Phase, Callable[[State, int, Event], bool]]] = {
    PH_OPENING: State.on_opening,
    PH_DISCARD: State.on_discard_phase,
    PH_DRAW: State.on_draw_phase,
    PH_DRAWN: State.on_drawn,
    PH_REVEALED: State.on_revealed,
}


def _name(card: Card | None) -> str:
    return card_name(card) if card is not None else "none"
