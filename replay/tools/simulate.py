"""Self-play: three bots play complete hands and write ``paohuzi-log/1`` logs.

The simulator owns no rules. It drives the real game state (``replay.state.State``) one
event at a time and reads its public state (``phase``, ``turn``, ``window``,
``drawn``, ``hu_after``, ``optional_discard``, the table) to know what is legal
and what is forced; the bots (``replay.bots``) only choose among legal options.
The claimed ``result`` of each log is the engine's own expected score.

Determinism: hand ``i`` of ``simulate(n, seed, ruleset)`` depends only on
``(seed, ruleset, i)`` (and, in a match, on the hands before it at that table):
its random stream is ``random.Random("paohuzi-sim/<ruleset>/<seed>/<i>")``.
The same seed gives the same bytes.

Rigged deals: a small deterministic fraction of the deals (``RIG_RATE``) is
*rigged*, i.e. one seat is dealt planted cards, so that the rare openings and
fans occur in a corpus of a few thousand hands: three fours or five threes
(mandatory 天胡), a hand that wins on the shown card (optional 天胡, with a
red-count target for 乌胡/点胡/红胡/红乌), a pairs-heavy hand (对对胡) and a
non-dealer with two dealt fours (the discard skip and hengshan 免张). A rigged
deal is still a permutation of the 80 cards with a correct commitment; the log
says so in ``meta.simulator.rig``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from .. import match as match_rules
from ..cards import NUM_KINDS, RED, Card, card_name, counts_of, next_seat
from ..discard_rule import dealer_owes_opening_discard
from ..model import FORMAT, Commitment, Deal, EndReason, Event, EventType, Log, Match
from ..opening import dealt_fours, mandatory_tian_hu, priority
from ..profiles import PROFILES, Profile
from ..results import RESULT_FIELDS, Score
from ..scoring import FAN_SCHEMES
from ..state import Impossible, Phase, State
from ..verdict import Code, Finding
from .bots import Bot, Persona, Style, personas_for

RULESETS: Final = tuple(PROFILES)
#: share of rigged deals (see the module doc)
RIG_RATE: Final = 0.035
#: share of hands a player leaves (ended ``abandoned``; never inside a match)
ABANDON_RATE: Final = 0.006
#: share of non-dealers whose dealt fours are 提'd late (just before their first draw)
LAZY_TI_RATE: Final = 0.2
#: share of drawer wins after a forced 提/偎 written as one ``hu`` (the meld implied)
IMPLIED_MELD_RATE: Final = 0.5
#: chance that a seat that declined an option logs an explicit ``pass``
PASS_LOG_RATE: Final = 0.3
MAX_EVENTS: Final = 600
EPOCH_S: Final = 1_795_000_000  # 2026-11-18, for ``started_at``


class SimulationError(Exception):
    """The engine refused a move the bots made from its own state: an engine or bot bug."""

    def __init__(self, message: str, doc: dict[str, Any]) -> None:
        super().__init__(message)
        self.doc = doc


# --------------------------------------------------------------------------- events


def event_json(e: Event) -> dict[str, Any]:
    """The log-format object of an event."""
    out: dict[str, Any] = {"type": str(e.type)}
    if e.type is EventType.END:
        out["reason"] = str(e.reason)
    else:
        out["seat"] = e.seat
        out["card"] = card_name(e.card) if e.card is not None else None
        if e.type is EventType.CHI:
            out["groups"] = [[card_name(c) for c in g] for g in e.groups]
    if e.t is not None:
        out["t"] = e.t
    return out


def commitment_sha(salt: str, hands: Sequence[Sequence[str]], stock: Sequence[str]) -> str:
    """LOG_FORMAT.md: SHA-256 of ``salt:hands0|hands1|hands2|stock``."""
    text = salt + ":" + "|".join([",".join(h) for h in hands] + [",".join(stock)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- deals


@dataclass(slots=True)
class DealPlan:
    hands: list[list[Card]]
    shown: Card
    stock: list[Card]
    rig: str = ""


def _deal_from(deck: list[Card], dealer: int, planted: dict[int, list[Card]],
               shown: Card | None) -> DealPlan:
    """Deal ``deck`` (shuffled, planted cards and a planted shown card removed) around the
    planted hands. The dealer's 21st card is the shown card."""
    hands: list[list[Card]] = [list(planted.get(s, [])) for s in range(3)]
    dealer_has_shown = shown is not None and shown in hands[dealer]
    pos = 0
    for s in priority(dealer):
        need = (21 if s == dealer and dealer_has_shown else 20) - len(hands[s])
        hands[s].extend(deck[pos:pos + need])
        pos += need
    if shown is None:
        shown = deck[pos]
        pos += 1
    elif dealer_has_shown:
        hands[dealer].remove(shown)
    hands[dealer].append(shown)
    return DealPlan(hands, shown, deck[pos:])


def shuffled_deal(rng: random.Random, dealer: int) -> DealPlan:
    deck = [k for k in range(NUM_KINDS) for _ in range(4)]
    rng.shuffle(deck)
    return _deal_from(deck, dealer, {}, None)


def _rest_of_deck(rng: random.Random, used: Sequence[Card]) -> list[Card] | None:
    left = [4] * NUM_KINDS
    for c in used:
        left[c] -= 1
        if left[c] < 0:
            return None
    deck = [k for k in range(NUM_KINDS) for _ in range(left[k])]
    rng.shuffle(deck)
    return deck


_RUNS: Final = [(k, k + 1, k + 2) for k in range(NUM_KINDS) if k % 10 <= 7] + \
    [(k, k + 5, k + 8) for k in (1, 11)]
_JIAO: Final = [(r, r, r + 10) for r in range(10)] + [(r, r + 10, r + 10) for r in range(10)]


def _red(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if c in RED)


_RED_TARGETS: Final[dict[str, tuple[int, int]]] = {
    "plain": (0, 80), "wu_hu": (0, 0), "dian_hu": (1, 1), "hong_hu": (10, 12),
    "hong_wu": (13, 80),
}


def _winning_cards(rng: random.Random, profile: Profile, style: str) -> list[Card] | None:
    """21 cards that make seven groups (a four, five threes and a pair, or seven threes)
    with at least ``min_huxi``, whose red count fits ``style``."""
    lo, hi = _RED_TARGETS[style]
    pool: list[tuple[Card, ...]] = [*_RUNS, *_JIAO]
    kans: list[tuple[Card, ...]] = [(k, k, k) for k in range(NUM_KINDS)]
    if style == "wu_hu":
        pool = [g for g in pool if _red(g) == 0]
        kans = [g for g in kans if _red(g) == 0]
    elif style == "dian_hu":
        pool = [g for g in pool if _red(g) <= 1]
        kans = [g for g in kans if _red(g) == 0]
    elif style in ("hong_hu", "hong_wu"):
        pool = [g for g in pool if _red(g) >= 1] * 3 + pool
        kans = [g for g in kans if _red(g) >= 1] * 3 + kans
    for _ in range(400):
        four = rng.random() < 0.3
        groups: list[tuple[Card, ...]] = []
        n_kan = rng.choice((0, 1, 1, 2, 2, 3))
        for _k in range(n_kan):
            groups.append(rng.choice(kans))
        if four:
            k = rng.randrange(NUM_KINDS)
            groups.append((k,) * 4)
        while len(groups) < (6 if four else 7):
            groups.append(rng.choice(pool))
        cards = [c for g in groups for c in g]
        if four:
            k = rng.choice([c for c in range(NUM_KINDS) if not (style == "wu_hu" and c in RED)])
            cards += [k, k]
        counts = counts_of(cards)
        if max(counts) > 4 or len(cards) != 21:
            continue
        if not lo <= _red(cards) <= hi:
            continue
        if style == "dian_hu" and _red(cards) != 1:
            continue
        if mandatory_tian_hu(profile, counts):
            continue
        return cards
    return None


def rigged_deal(rng: random.Random, dealer: int, profile: Profile) -> DealPlan | None:
    kinds = ["tian_hu_fours", "tian_hu_threes", "shown_win", "shown_win", "shown_win",
             "pairs", "pairs", "two_fours", "two_fours"]
    rig = rng.choice(kinds)
    seat = rng.randrange(3)
    planted: list[Card] = []
    shown: Card | None = None
    if rig == "tian_hu_fours":
        for k in rng.sample(range(NUM_KINDS), 3):
            planted += [k] * 4
    elif rig == "tian_hu_threes":
        for k in rng.sample(range(NUM_KINDS), 5):
            planted += [k] * 3
    elif rig == "pairs":
        for k in rng.sample(range(NUM_KINDS), 8):
            planted += [k] * 2
    elif rig == "two_fours":
        # A non-dealer with two dealt fours, a pair to 碰 and three sentences and a loose
        # card: one 碰 or 吃 away from ready (the discard skip; hengshan 免张).
        seat = rng.choice([s for s in range(3) if s != dealer])
        for _ in range(50):
            a, b, c = rng.sample(range(NUM_KINDS), 3)
            planted = [a] * 4 + [b] * 4 + [c] * 2
            for _r in range(3):
                planted += list(rng.choice(_RUNS))
            planted.append(rng.randrange(NUM_KINDS))
            n = counts_of(planted)
            if max(n) <= 4 and sum(1 for x in n if x >= 3) == 2:
                break
        else:
            return None
    else:
        style = rng.choice(tuple(_RED_TARGETS))
        win = _winning_cards(rng, profile, style)
        if win is None:
            return None
        rig = f"shown_win:{style}"
        shown = rng.choice(win)
        planted = list(win)
        if seat != dealer:
            planted.remove(shown)
    rest = _rest_of_deck(rng, planted + ([shown] if shown is not None and seat != dealer else []))
    if rest is None:
        return None
    rng.shuffle(planted)
    plan = _deal_from(rest, dealer, {seat: planted}, shown)
    plan.rig = f"{rig}@{seat}"
    return plan


# --------------------------------------------------------------------------- the log


def build_log(game_id: str, profile: Profile, ruleset: str, dealer: int, plan: DealPlan,
              salt: str, players: Sequence[str]) -> Log:
    """The ``Log`` the replayer runs on while the hand is being played (no events yet)."""
    hand_names = tuple(tuple(card_name(c) for c in h) for h in plan.hands)
    stock_names = tuple(card_name(c) for c in plan.stock)
    sha = commitment_sha(salt, hand_names, stock_names)
    deal = Deal(
        hands=(tuple(plan.hands[0]), tuple(plan.hands[1]), tuple(plan.hands[2])),
        shown=plan.shown,
        stock=tuple(plan.stock),
        hand_names=hand_names,
        stock_names=stock_names,
        commitment=Commitment(salt, sha),
    )
    return Log(game_id=game_id, ruleset=ruleset, profile=profile,
               players=(players[0], players[1], players[2]), dealer=dealer, deal=deal,
               events=())


def log_document(log: Log, events: Sequence[dict[str, Any]], result: dict[str, Any] | None,
                 *, match: tuple[str, int] | None = None, started_at: str | None = None,
                 meta: dict[str, Any] | None = None, drawn_before: int = 0) -> dict[str, Any]:
    deal = log.deal
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game_id": log.game_id,
        "ruleset": log.ruleset,
    }
    if match is not None:
        doc["match"] = {"id": match[0], "hand": match[1]}
        if drawn_before:
            doc["match"]["drawn_before"] = drawn_before
    if started_at is not None:
        doc["started_at"] = started_at
    doc["players"] = [{"seat": s, "id": log.players[s]} for s in range(3)]
    doc["dealer"] = log.dealer
    doc["deal"] = {
        "hands": [list(h) for h in deal.hand_names],
        "shown": card_name(deal.shown),
        "stock": list(deal.stock_names),
    }
    if deal.commitment is not None:
        doc["deal"]["commitment"] = {"salt": deal.commitment.salt,
                                     "sha256": deal.commitment.sha256}
    doc["events"] = list(events)
    if result is not None:
        doc["result"] = result
    if meta:
        doc["meta"] = meta
    return doc


def claimed_result(score: Score | None) -> dict[str, Any] | None:
    if score is None:
        return None
    expected = score.to_json()
    return {k: expected[k] for k in RESULT_FIELDS if k in expected}


# --------------------------------------------------------------------------- the table


@dataclass(slots=True)
class Options:
    """Knobs of one hand's play."""

    abandon_at: int | None = None
    lazy_ti: tuple[bool, bool, bool] = (False, False, False)
    allow_end_event: bool = True


class Driver:
    """Plays a hand on a ``State`` from its current point to the end."""

    def __init__(self, log: Log, rng: random.Random, bots: Sequence[Bot],
                 options: Options | None = None, *, rep: State | None = None,
                 events: list[Event] | None = None, t: int = 0) -> None:
        self.log = log
        self.rng = rng
        self.bots = list(bots)
        self.options = options or Options()
        self.events: list[Event] = list(events or [])
        if rep is None:
            rep = State(log)
            for e in self.events:
                rep.apply(e)
        self.rep = rep
        self.t = t
        self.lazy: list[list[Card]] = [[], [], []]
        self.forced_at = -1  # index of the last forced 提/偎 of a drawn card
        self.declined: list[tuple[int, Card]] = []
        self.done = False
        #: a finding code that may fire once (the one a doctored log is meant to raise)
        self.tolerate: Code | None = None
        self.tolerated: list[Finding] = []
        #: called before each move until it returns events to inject (doctored logs)
        self.hunter: Callable[[Driver], list[Event] | None] | None = None
        self.after_hunt: Callable[[Driver], None] | None = None
        self.hunted_at: int | None = None
        if self.events and rep.phase is not Phase.OPENING:
            # Playing on from a prefix: dealt fours not 提'd yet are 提'd before the seat acts.
            self.lazy = [dealt_fours(rep.table.seats[s].hand) for s in range(3)]

    # -- emitting
    def emit(self, type_: EventType, seat: int | None = None, card: Card | None = None,
             groups: tuple[tuple[Card, ...], ...] = (), reason: EndReason | None = None) -> None:
        self.t += self.rng.randint(250, 4000)
        e = Event(type_, seat, card, groups, reason, self.t)
        before = len(self.rep.findings)
        self.events.append(e)
        self.rep.apply(e)
        for f in self.rep.findings[before:]:
            if f.code is self.tolerate and not self.tolerated:
                self.tolerated.append(f)
            else:
                raise Unexpected(f)

    def inject(self, events: Sequence[Event]) -> None:
        """Emit prepared events (a doctored move), stamping their time."""
        for e in events:
            self.emit(e.type, e.seat, e.card, e.groups, e.reason)

    def flush_passes(self) -> None:
        for seat, card in self.declined:
            if self.rng.random() < PASS_LOG_RATE:
                self.emit(EventType.PASS, seat, card)
        self.declined = []

    def flush_lazy(self, seat: int) -> None:
        for k in self.lazy[seat]:
            self.emit(EventType.TI, seat, k)
        self.lazy[seat] = []

    def rebuild(self, events: list[Event]) -> None:
        self.events = []
        self.rep = State(self.log)
        for e in events:
            self.events.append(e)
            self.rep.apply(e)

    # -- the loop
    def play(self) -> None:
        rep = self.rep
        while not self.done and self.rep.phase is not Phase.ENDED:
            if len(self.events) >= MAX_EVENTS:
                raise RuntimeError("the hand does not end")
            ab = self.options.abandon_at
            if ab is not None and len(self.events) >= ab:
                self.emit(EventType.END, reason=EndReason.ABANDONED)
                break
            if self.hunter is not None:
                found = self.hunter(self)
                if found is not None:
                    self.hunter = None
                    self.hunted_at = len(self.events) + len(found) - 1
                    self.inject(found)
                    if self.after_hunt is not None:
                        self.after_hunt(self)
                    rep = self.rep
                    continue
            self.advance()
            rep = self.rep
        if rep.phase is not Phase.ENDED:
            rep.finish()

    def chou(self, seat: int) -> set[Card]:
        return self.rep.ledger.seats[seat].chou_kinds()

    def advance(self) -> None:
        rep = self.rep
        phase = rep.phase
        if phase is Phase.OPENING:
            self.opening()
        elif phase is Phase.DRAWN:
            d = rep.drawn
            assert d is not None
            self.emit(d.forced, d.seat, d.card)
            self.forced_at = len(self.events) - 1
        elif phase is Phase.REVEALED:
            self.revealed()
        elif phase is Phase.DISCARD:
            if not self.pending_win():
                self.discard_turn(rep.turn)
        elif phase is Phase.DRAW:
            if not self.pending_win():
                self.draw_turn(rep.turn)

    def opening(self) -> None:
        rep = self.rep
        dealer = self.log.dealer
        mandatory = rep.mandatory_seats()
        if mandatory:
            self.emit(EventType.HU, mandatory[0], None)
            return
        shown = self.log.deal.shown
        for s in rep.optional_candidates():
            if self.bots[s].want_hu():
                self.flush_passes()
                self.emit(EventType.HU, s, shown)
                return
            self.declined.append((s, shown))
        self.flush_passes()
        for s in priority(dealer):
            for k in dealt_fours(rep.table.seats[s].hand):
                if s != dealer and self.options.lazy_ti[s]:
                    self.lazy[s].append(k)
                else:
                    self.emit(EventType.TI, s, k)
        if dealer_owes_opening_discard(len(dealt_fours(rep.dealt[dealer]))):
            self.discard_turn(dealer)
        else:
            self.draw_turn(next_seat(dealer))

    def pending_win(self) -> bool:
        """After a 提/偎/跑: a candidate may win on that card now. True when one did."""
        ha = self.rep.hu_after
        if ha is None:
            return False
        for s in ha.candidates:
            if self.lazy[s] or not self.bots[s].want_hu():
                self.declined.append((s, ha.card))
                continue
            just_melded = self.forced_at == len(self.events) - 1
            if s == ha.seat and ha.drawn and ha.src == s and just_melded \
                    and self.rng.random() < IMPLIED_MELD_RATE:
                # Write the win alone: the forced 提/偎 is implied by it.
                t = self.t
                self.rebuild(self.events[:-1])
                self.t = t
                self.declined = []
            else:
                self.flush_passes()
            self.emit(EventType.HU, s, ha.card)
            return True
        self.flush_passes()
        return False

    def discard_turn(self, seat: int) -> None:
        rep = self.rep
        if rep.phase is Phase.DISCARD and rep.optional_discard and rep.table.stock_left \
                and self.bots[seat].want_mian():
            self.draw_turn(next_seat(seat))  # 免张: skip the discard
            return
        hand = rep.table.seats[seat].hand
        card = self.bots[seat].choose_discard(hand, self.chou(seat))
        if card is None:
            raise Stuck(f"seat {seat} holds only 坎 and owes a discard")
        self.emit(EventType.DISCARD, seat, card)

    def draw_turn(self, seat: int) -> None:
        rep = self.rep
        top = rep.table.stock_top()
        if top is None:
            if self.options.allow_end_event and self.rng.random() < 0.5:
                self.emit(EventType.END, reason=EndReason.EXHAUSTED)
            self.done = True
            return
        self.flush_lazy(seat)
        self.emit(EventType.DRAW, seat, top)

    def yields(self, seat: int, others: Sequence[int]) -> bool:
        """Does ``seat`` let a claim go so that one of ``others`` (ranked below it) may
        take the card? Never for the honest bots; the population simulator's colluders."""
        return False

    def revealed(self) -> None:
        rep = self.rep
        w = rep.window
        assert w is not None
        card = w.card
        for s in w.hu:
            if self.lazy[s] or not self.bots[s].want_hu():
                self.declined.append((s, card))
                continue
            self.flush_passes()
            self.emit(EventType.HU, s, card)
            return
        if w.pao is not None:
            self.flush_passes()
            self.flush_lazy(w.pao)
            self.emit(EventType.PAO, w.pao, card)
            return
        if w.peng is not None and not self.lazy[w.peng] and not self.yields(w.peng, w.chi):
            bot = self.bots[w.peng]
            if bot.choose_peng(rep.table.seats[w.peng].hand, card, owes_discard=True):
                self.flush_passes()
                self.emit(EventType.PENG, w.peng, card)
                return
            self.declined.append((w.peng, card))
        for s in w.chi:
            if self.lazy[s] or self.yields(s, w.chi[w.chi.index(s) + 1:]):
                continue
            opt = self.bots[s].choose_chi(rep.table.seats[s].hand, card,
                                          drawn_by_me=w.drawn and s == w.src)
            if opt is not None:
                self.flush_passes()
                self.emit(EventType.CHI, s, card, (opt.taken, *opt.bi))
                return
            self.declined.append((s, card))
        self.flush_passes()
        self.draw_turn(next_seat(w.src))


class Unexpected(Exception):
    def __init__(self, finding: Finding) -> None:
        super().__init__(f"{finding.code} at {finding.seq}: {finding.message}")
        self.finding = finding


class Stuck(Exception):
    pass


# --------------------------------------------------------------------------- hands


#: Every hand skipped in this process: (game_id, signature, why): the state refused a
#: move the bots made from its own legal options (an engine or bot bug). The property
#: suite requires it to stay empty.
QUARANTINED: list[tuple[str, str, str]] = []


def signature(why: str, doc: dict[str, Any]) -> str:
    """A short name for the kind of disagreement behind a skipped hand."""
    events = doc.get("events") or []
    if why.startswith("Stuck"):
        return "stuck_no_discard"
    if "hu_invalid" in why and len(events) >= 2 and events[-1].get("type") == "hu":
        before = [e for e in events[:-1] if e.get("type") != "pass"]
        if before and before[-1].get("type") == "pao" and \
                before[-1].get("seat") == events[-1].get("seat"):
            if "no win on a discard" in why:
                return "hu_after_pao_of_discard"
            return "hu_after_pao_judged_after_meld"
    return "unknown"


def hand_rng(seed: int, ruleset: str, index: int, attempt: int = 0) -> random.Random:
    key = f"paohuzi-sim/{ruleset}/{seed}/{index}"
    return random.Random(key if attempt == 0 else f"{key}/retry{attempt}")


def _players(rng: random.Random) -> list[str]:
    return [f"bot-{n:04d}" for n in rng.sample(range(1, 10000), 3)]


def play_hand(
    rng: random.Random,
    profile: Profile,
    ruleset: str,
    dealer: int,
    game_id: str,
    players: Sequence[str],
    *,
    match: tuple[str, int] | None = None,
    allow_abandon: bool = True,
    style: Style | None = None,
    drawn_before: int = 0,
    styles: Sequence[Style | None] | None = None,
    make_driver: Callable[[Log, random.Random, list[Bot], Options], Driver] | None = None,
    started: int | None = None,
) -> dict[str, Any]:
    """Play one hand; the log document. Raises ``SimulationError`` on an engine disagreement.

    ``drawn_before`` (黄番): hands drawn in a row just before this one at its table.
    ``styles`` gives each seat its own style, ``make_driver`` another driver (the
    population simulator's planted cheats), ``started`` the start time (epoch seconds)."""
    plan: DealPlan | None = None
    if rng.random() < RIG_RATE:
        plan = rigged_deal(rng, dealer, profile)
    if plan is None:
        plan = shuffled_deal(rng, dealer)
    salt = f"{rng.getrandbits(128):032x}"
    log = build_log(game_id, profile, ruleset, dealer, plan, salt, players)
    if match is not None and drawn_before:
        log = replace(log, match=Match(match[0], match[1], drawn_before))
    personas = personas_for(rng, changde=FAN_SCHEMES[profile.flowers].mingtang)
    if plan.rig.startswith("pairs"):
        seat = int(plan.rig.rsplit("@", 1)[1])
        personas = tuple(Persona.PAIRS if s == seat else p  # type: ignore[assignment]
                         for s, p in enumerate(personas))
    seat_styles = list(styles) if styles is not None else [style] * 3
    bots = [Bot(s, rng, personas[s], seat_styles[s]) for s in range(3)]
    options = Options(
        abandon_at=rng.randrange(0, 70) if allow_abandon and rng.random() < ABANDON_RATE
        else None,
        lazy_ti=(rng.random() < LAZY_TI_RATE, rng.random() < LAZY_TI_RATE,
                 rng.random() < LAZY_TI_RATE),
    )
    driver = (make_driver or Driver)(log, rng, bots, options)
    meta: dict[str, Any] = {"simulator": {"personas": [str(p) for p in personas]}}
    if plan.rig:
        meta["simulator"]["rig"] = plan.rig
    if started is None:
        started = EPOCH_S + rng.randrange(0, 86400 * 30)
    started_at = _iso(started)
    try:
        driver.play()
    except (Unexpected, Stuck, Impossible, AssertionError, RuntimeError, KeyError, IndexError,
            ValueError) as exc:
        doc = log_document(log, [event_json(e) for e in driver.events], None, match=match,
                           started_at=started_at, meta=meta, drawn_before=drawn_before)
        raise SimulationError(f"{type(exc).__name__}: {exc}", doc) from exc
    result = claimed_result(driver.rep.expected)
    return log_document(log, [event_json(e) for e in driver.events], result, match=match,
                        started_at=started_at, meta=meta, drawn_before=drawn_before)


def _iso(ts: int) -> str:
    import datetime as _dt

    return _dt.datetime.fromtimestamp(ts, tz=_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _robust(make: Callable[[int], dict[str, Any]], game_id: str) -> dict[str, Any]:
    """Play a hand; on an engine disagreement quarantine it and replay with another stream."""
    for attempt in range(20):
        try:
            return make(attempt)
        except SimulationError as exc:
            QUARANTINED.append((game_id if attempt == 0 else f"{game_id}/retry{attempt}",
                                signature(str(exc), exc.doc), str(exc)))
            if _on_quarantine is not None:
                _on_quarantine(game_id, str(exc), exc.doc)
    raise RuntimeError(f"{game_id}: the simulator failed 20 times in a row")


#: ``_robust`` for the simulator's other drivers (the population simulator)
play_robustly = _robust

_on_quarantine: Callable[[str, str, dict[str, Any]], None] | None = None


def set_quarantine_hook(hook: Callable[[str, str, dict[str, Any]], None] | None) -> None:
    """Called with (game_id, why, partial log) for each hand skipped."""
    global _on_quarantine
    _on_quarantine = hook


def next_dealer(profile: Profile, dealer: int, winner: int | None, outcome: str,
                drawn_run: int) -> tuple[int, int]:
    """RULES §10: (next dealer, drawn hands in a row so far); the rule is
    ``replay.match.next_dealer`` (a simulated match hand ends won or drawn)."""
    nxt, run = match_rules.next_dealer(profile, dealer, "hu" if outcome == "hu" else "exhausted",
                                       winner, drawn_run)
    return (dealer if nxt is None else nxt), run


def simulate(games: int, seed: int = 0, ruleset: str = "standard", *, match: int = 1,
             style: Style | None = None, start: int = 0) -> Iterator[dict[str, Any]]:
    """``games`` complete hands as log documents, in order.

    ``match`` > 1 plays the hands at tables of ``match`` hands each, with dealer
    rotation (RULES §10) and ``match`` headers. ``start`` skips the first hands
    (of a plain corpus), so that a corpus can be made in slices.
    """
    if ruleset not in PROFILES:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    profile = PROFILES[ruleset]
    if match <= 1:
        for index in range(start, start + games):
            game_id = f"sim-{ruleset}-{seed}-{index:06d}"

            def make(attempt: int, index: int = index, game_id: str = game_id) -> dict[str, Any]:
                rng = hand_rng(seed, ruleset, index, attempt)
                dealer = rng.randrange(3)
                return play_hand(rng, profile, ruleset, dealer, game_id, _players(rng),
                                 style=style)

            yield _robust(make, game_id)
        return
    tables = (games + match - 1) // match
    made = 0
    for m in range(tables):
        trng = random.Random(f"paohuzi-sim/{ruleset}/{seed}/match{m}")
        players = _players(trng)
        dealer = trng.randrange(3)
        match_id = f"sim-{ruleset}-{seed}-m{m:05d}"
        drawn_run = 0
        drawn_in_row = 0  # 黄番 (only written where the profile has it)
        for h in range(1, match + 1):
            if made >= games:
                return
            game_id = f"{match_id}-h{h:03d}"

            def make_m(attempt: int, m: int = m, h: int = h, dealer: int = dealer,
                       game_id: str = game_id, match_id: str = match_id,
                       players: list[str] = players,
                       drawn: int = drawn_in_row if profile.huang_fan else 0,
                       ) -> dict[str, Any]:
                rng = hand_rng(seed, ruleset, m * 100_000 + h, attempt)
                return play_hand(rng, profile, ruleset, dealer, game_id, players,
                                 match=(match_id, h), allow_abandon=False, style=style,
                                 drawn_before=drawn)

            doc = _robust(make_m, game_id)
            made += 1
            result = doc.get("result") or {}
            dealer, drawn_run = next_dealer(profile, dealer, result.get("winner"),
                                            str(result.get("outcome")), drawn_run)
            drawn_in_row = drawn_in_row + 1 if result.get("outcome") == "exhausted" else 0
            yield doc


def dumps(doc: dict[str, Any]) -> str:
    """One log as compact JSON (the bytes ``simulate`` writes)."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


__all__ = [
    "Driver",
    "Options",
    "QUARANTINED",
    "RULESETS",
    "SimulationError",
    "build_log",
    "claimed_result",
    "commitment_sha",
    "dumps",
    "event_json",
    "log_document",
    "next_dealer",
    "play_hand",
    "simulate",
]
