"""The cheat injector: one named violation in an otherwise consistent log.

``python -m replay mutate --kind K LOG`` prints ``{"log": <doctored log>,
"expect": {"code": C, "seq": N}}``: the finding a correct verdict must contain
(and the only violation it may contain), or exits 3 when the log offers no
place for that kind. ``--list`` lists the kinds.

How a log is doctored. Most kinds are *moves*: the clean log is replayed
through the real engine to a moment where the cheat is physically possible
(a card the seat holds, a take the seat could make but may not), the cheating
move is applied there, and the bots (``replay.simulate``) play the hand on from
the doctored table, so every later event is consistent with what the cheat
changed and no other rule is broken. When the clean log has no such moment,
the injector *hunts*: it replays a prefix of the log and lets the bots play on
(for 臭胡: refusing every win; for 过张: passing more often) until the moment
occurs. The claimed ``result`` is the engine's expected score of the doctored
hand, so only the intended finding fires. The other kinds edit the record
itself: a drawn card, the deal commitment, the claimed score.

Every doctored log is checked with the real verifier before it is returned:
its findings must be exactly the expected one.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..audit import verify
from ..cards import NUM_KINDS, Card, card_name, next_seat
from ..chi import chi_options
from ..claims import hu_order, win_huxi
from ..logformat import LogFormatError, log_sha256, parse_log
from ..model import EndReason, Event, EventType, Log
from ..opening import dealt_fours
from ..state import Impossible, Phase, State
from ..verdict import Code, Verdict
from .bots import Bot, Persona, Style
from .simulate import (
    Driver,
    Options,
    SimulationError,
    Stuck,
    Unexpected,
    claimed_result,
    event_json,
)

Inject = list[Event]
Finder = Callable[[State, random.Random], Inject | None]


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    code: Code
    what: str
    finder: Finder | None = None  # a move-kind; None for record edits
    hunt_style: Style | None = None  # bot style while hunting (None: the usual)


class NoPlace(Exception):
    """The log offers no place for this kind of violation."""


# --------------------------------------------------------------------------- helpers


def _ev(type_: EventType, seat: int | None = None, card: Card | None = None,
        groups: tuple[tuple[Card, ...], ...] = (), reason: EndReason | None = None) -> Event:
    return Event(type_, seat, card, groups, reason)


def _prep(rep: State, seat: int) -> Inject:
    """提 any dealt four the seat still holds (a late dealt 提), before it acts."""
    return [_ev(EventType.TI, seat, k) for k in dealt_fours(rep.table.seats[seat].hand)]


def _next_turn(rep: State, seat: int) -> Inject:
    """What comes when ``seat`` does not act: ``next(seat)`` draws, or the hand ends."""
    nxt = next_seat(seat)
    top = rep.table.stock_top()
    if top is None:
        return [_ev(EventType.END, reason=EndReason.EXHAUSTED)]
    return [*_prep(rep, nxt), _ev(EventType.DRAW, nxt, top)]


def _throwable(rep: State, seat: int, rng: random.Random) -> Card | None:
    hand = rep.table.seats[seat].hand
    kinds = [k for k in range(NUM_KINDS) if hand[k] in (1, 2)]
    return rng.choice(kinds) if kinds else None


# --------------------------------------------------------------------------- finders


def _take_barred(code: Code) -> Finder:
    """吃/碰 of a kind that is 臭 for the seat (by 过张 or by its own discard)."""

    def find(rep: State, rng: random.Random) -> Inject | None:
        w = rep.window
        if rep.phase is not Phase.REVEALED or w is None or w.pao is not None:
            return None
        c = w.card
        moves: list[Inject] = []
        for s in range(3):
            if rep.mian_used[s]:
                continue
            bar = rep.ledger.seats[s].bar_for_take(c)
            if bar is None or bar[0] is not code:
                continue
            hand = rep.table.seats[s].hand
            if s != w.src and hand[c] == 2:
                moves.append([*_prep(rep, s), _ev(EventType.PENG, s, c)])
            if s in w.chi_order:
                for opt in chi_options(hand, c):
                    moves.append([*_prep(rep, s), _ev(EventType.CHI, s, c, (opt.taken, *opt.bi))])
        return rng.choice(moves) if moves else None

    return find


def _chou_hu(rep: State, rng: random.Random) -> Inject | None:
    """A win on a revealed card by a seat that a refused win still bars."""
    w = rep.window
    if rep.phase is not Phase.REVEALED or w is None:
        return None
    profile = rep.profile
    moves: list[Inject] = []
    for s in hu_order(w.src, w.drawn):
        if s in w.hu or (not w.drawn and not profile.hu_on_discard):
            continue
        bar = rep.ledger.hu_bar(s, w.card, w.table_huxi[s])
        if bar is None or bar[0] is not Code.CHOU_HU:
            continue
        if win_huxi(rep.table, s, w.card) >= profile.min_huxi:
            moves.append([_ev(EventType.HU, s, w.card)])
    return rng.choice(moves) if moves else None


def _bi_missing(rep: State, rng: random.Random) -> Inject | None:
    """A legal 吃 whose 比 leaves one group out (烧比)."""
    w = rep.window
    if rep.phase is not Phase.REVEALED or w is None or w.pao is not None:
        return None
    moves: list[Inject] = []
    for s in w.chi:
        for opt in chi_options(rep.table.seats[s].hand, w.card):
            if opt.bi:
                drop = rng.randrange(len(opt.bi))
                bi = opt.bi[:drop] + opt.bi[drop + 1:]
                moves.append([*_prep(rep, s), _ev(EventType.CHI, s, w.card, (opt.taken, *bi))])
    return rng.choice(moves) if moves else None


def _pao_missed(rep: State, rng: random.Random) -> Inject | None:
    """The card a seat had to 跑 goes by: the next seat draws (走跑)."""
    w = rep.window
    if rep.phase is not Phase.REVEALED or w is None or w.pao is None:
        return None
    return _next_turn(rep, w.src)


def _ti_missed(rep: State, rng: random.Random) -> Inject | None:
    """A drawn card that had to be 提'd is left on the table (烧提)."""
    d = rep.drawn
    if rep.phase is not Phase.DRAWN or d is None or d.forced is not EventType.TI:
        return None
    return _next_turn(rep, d.seat)


def _discard_after_chong_pao(rep: State, rng: random.Random) -> Inject | None:
    """A discard by a seat that owes none after its second four (八块后打牌)."""
    s = rep.last_actor
    if rep.phase is not Phase.DRAW or s is None or rep.table.seats[s].fours < 2:
        return None
    card = _throwable(rep, s, rng)
    return None if card is None else [_ev(EventType.DISCARD, s, card)]


def _discard_missing(rep: State, rng: random.Random) -> Inject | None:
    """The seat owing a discard does not make it: the next seat draws."""
    if rep.phase is not Phase.DISCARD or rep.optional_discard or rep.table.stock_left == 0:
        return None
    return _next_turn(rep, rep.turn)


def _chi_wrong_seat(rep: State, rng: random.Random) -> Inject | None:
    """A 吃 by a seat that may not 吃 this card (not ``next`` of the discarder, not the
    drawer or its ``next``)."""
    w = rep.window
    if rep.phase is not Phase.REVEALED or w is None or w.pao is not None:
        return None
    moves: list[Inject] = []
    for s in range(3):
        if s in w.chi_order or rep.mian_used[s]:
            continue
        for opt in chi_options(rep.table.seats[s].hand, w.card):
            moves.append([*_prep(rep, s), _ev(EventType.CHI, s, w.card, (opt.taken, *opt.bi))])
    return rng.choice(moves) if moves else None


def _out_of_turn(rep: State, rng: random.Random) -> Inject | None:
    """Another seat draws (or discards) in place of the one whose turn it is."""
    if rep.phase is Phase.DRAW and rep.table.stock_left:
        top = rep.table.stock_top()
        s = rng.choice([x for x in range(3) if x != rep.turn])
        return [*_prep(rep, s), _ev(EventType.DRAW, s, top)]
    if rep.phase is Phase.DISCARD:
        s = rng.choice([x for x in range(3) if x != rep.turn])
        card = _throwable(rep, s, rng)
        if card is not None:
            return [*_prep(rep, s), _ev(EventType.DISCARD, s, card)]
    return None


_HUNT_PASSIVE: Final = Style(p_take=0.35)
_HUNT_REFUSE: Final = Style(p_hu=0.0, p_take=0.5)

KINDS: Final[dict[str, Kind]] = {k.name: k for k in (
    Kind("guo_zhang", Code.GUO_ZHANG, "take a card passed earlier (吃/碰 过张)",
         _take_barred(Code.GUO_ZHANG), _HUNT_PASSIVE),
    Kind("chou_pai", Code.CHOU_PAI, "take a kind of one's own discard (臭牌)",
         _take_barred(Code.CHOU_PAI)),
    Kind("chou_hu", Code.CHOU_HU, "win where an earlier refused win bars it (臭胡)",
         _chou_hu, _HUNT_REFUSE),
    Kind("bi_missing", Code.BI_MISSING, "吃 and leave out a 比 group (烧比)", _bi_missing),
    Kind("pao_missed", Code.PAO_MISSED, "let a card go by that had to be 跑'd (走跑)",
         _pao_missed),
    Kind("ti_missed", Code.TI_MISSED, "leave a drawn card that had to be 提'd (烧提)",
         _ti_missed),
    Kind("discard_after_chong_pao", Code.DISCARD_NOT_OWED,
         "discard after a second four (八块/重跑后打牌)", _discard_after_chong_pao),
    Kind("discard_missing", Code.DISCARD_MISSING, "skip an owed discard", _discard_missing),
    Kind("chi_wrong_seat", Code.CHI_NOT_ALLOWED, "吃 from a seat that may not 吃 the card",
         _chi_wrong_seat),
    Kind("out_of_turn", Code.OUT_OF_TURN, "draw or discard in another seat's turn",
         _out_of_turn),
    Kind("draw_tampered", Code.DRAW_MISMATCH, "log a drawn card other than the stock top"),
    Kind("commitment_tampered", Code.COMMITMENT_MISMATCH,
         "change the deal after its commitment was published"),
    Kind("score_misstated", Code.SCORE_MISMATCH,
         "misstate the result (points, huxi, fans or payouts)"),
)}


# --------------------------------------------------------------------------- the doctoring


def _rng(doc: dict[str, Any], kind: str, salt: str) -> random.Random:
    key = f"paohuzi-mutate/{kind}/{log_sha256(doc)}/{salt}"
    return random.Random(hashlib.sha256(key.encode()).hexdigest())


def _personas(log: Log) -> list[Persona]:
    raw = ((log.raw.get("meta") or {}).get("simulator") or {}).get("personas")
    if isinstance(raw, list) and len(raw) == 3 and all(p in Persona.__members__.values()
                                                       for p in raw):
        return [Persona(p) for p in raw]
    return [Persona.NORMAL] * 3


def _prefix(log: Log, k: int) -> State:
    rep = State(log)
    for e in log.events[:k]:
        rep.apply(e)
    return rep


def _last_t(log: Log, k: int) -> int:
    ts = [e.t for e in log.events[:k] if e.t is not None]
    return ts[-1] if ts else 0


def _document(doc: dict[str, Any], kind: Kind, events: list[dict[str, Any]],
              result: dict[str, Any] | None, seq: int | None, kept: int) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["game_id"] = f"{doc['game_id']}~{kind.name}"[:128]
    out["events"] = events
    if result is not None:
        out["result"] = result
    else:
        out.pop("result", None)
    meta = out.setdefault("meta", {})
    if isinstance(meta, dict):
        # ``kept``: how many events of the clean log are kept as they were
        meta["mutation"] = {"kind": kind.name, "code": str(kind.code), "seq": seq,
                            "kept": kept}
    return out


def _play_on(log: Log, rng: random.Random, kind: Kind, k: int,
             inject: Inject | None, hunt: bool) -> tuple[list[Event], dict[str, Any] | None,
                                                        int | None]:
    """Replay the first ``k`` events, apply ``inject`` (or hunt for a place), play on."""
    rep = _prefix(log, k)
    personas = _personas(log)
    style = kind.hunt_style if hunt else None
    bots = [Bot(s, rng, personas[s], style) for s in range(3)]
    # A hand that was abandoned is abandoned at the same point after the doctoring.
    abandoned = bool(log.events) and log.events[-1].reason is EndReason.ABANDONED
    options = Options(abandon_at=len(log.events) - 1 if abandoned else None)
    driver = Driver(log, rng, bots, options, rep=rep, events=list(log.events[:k]),
                    t=_last_t(log, k))
    driver.tolerate = kind.code
    if hunt:
        finder = kind.finder
        assert finder is not None

        def hunter(d: Driver) -> Inject | None:
            return finder(d.rep, rng)

        def normal(d: Driver) -> None:
            for b in d.bots:
                b.style = Style()

        driver.hunter = hunter
        driver.after_hunt = normal
    else:
        assert inject is not None
        driver.inject(inject)
        driver.hunted_at = len(driver.events) - 1
    driver.play()
    if driver.hunted_at is None or not driver.tolerated:
        raise NoPlace("no place found")
    return driver.events, claimed_result(driver.rep.expected), driver.hunted_at


def _check(doctored: dict[str, Any], code: Code, seq: int | None) -> Verdict | None:
    """The verdict, when its findings are exactly the expected one."""
    try:
        verdict = verify(parse_log(doctored))
    except LogFormatError:
        return None
    got = [(f.seq, f.code) for f in verdict.findings]
    return verdict if got == [(seq, code)] else None


def _move_kind(doc: dict[str, Any], log: Log, kind: Kind, tries: int) -> dict[str, Any]:
    hunts = tries * 2 if kind.hunt_style is not None or kind.code is Code.TI_MISSED else tries
    finder = kind.finder
    assert finder is not None
    walk_rng = _rng(doc, kind.name, "walk")
    # 1. places in the log as it was played
    sites: list[int] = []
    rep = State(log)
    try:
        for i, e in enumerate(log.events):
            if rep.phase is Phase.ENDED:
                break
            if finder(rep, walk_rng) is not None:
                sites.append(i)
            rep.apply(e)
        if rep.phase is not Phase.ENDED and finder(rep, walk_rng) is not None:
            sites.append(len(log.events))
    except Impossible:
        pass
    walk_rng.shuffle(sites)
    attempts: list[tuple[int, bool]] = [(k, False) for k in sites[:tries]]
    # 2. hunts from prefixes of the log
    starts = [k for k in range(len(log.events)) if k <= max(1, int(0.7 * len(log.events)))]
    walk_rng.shuffle(starts)
    attempts += [(k, True) for k in [0, *starts][:hunts]]
    for n, (k, hunt) in enumerate(attempts):
        rng = _rng(doc, kind.name, f"{k}/{int(hunt)}/{n}")
        try:
            inject = None
            if not hunt:
                inject = finder(_prefix(log, k), rng)
                if inject is None:
                    continue
            events, result, seq = _play_on(log, rng, kind, k, inject, hunt)
        except (NoPlace, SimulationError, Unexpected, Stuck, Impossible, AssertionError,
                RuntimeError):
            continue
        out = _document(doc, kind, [event_json(e) for e in events], result, seq, k)
        if _check(out, kind.code, seq) is not None:
            return {"log": out, "expect": {"code": str(kind.code), "seq": seq}}
    raise NoPlace(f"no place in {log.game_id} for {kind.name}")


def _draw_tampered(doc: dict[str, Any], log: Log, kind: Kind, tries: int) -> dict[str, Any]:
    rng = _rng(doc, kind.name, "draw")
    draws = [i for i, e in enumerate(log.events) if e.type is EventType.DRAW]
    rng.shuffle(draws)
    for i in draws[:tries]:
        real = log.events[i].card
        later = sorted({c for c in log.deal.stock if c != real})
        if not later:
            continue
        out = copy.deepcopy(doc)
        out["events"][i]["card"] = card_name(rng.choice(later))
        out = _document(out, kind, out["events"], out.get("result"), i, i)
        if _check(out, kind.code, i) is not None:
            return {"log": out, "expect": {"code": str(kind.code), "seq": i}}
    raise NoPlace(f"{log.game_id} has no draw to tamper with")


def _commitment_tampered(doc: dict[str, Any], log: Log, kind: Kind, tries: int) -> \
        dict[str, Any]:
    if log.deal.commitment is None:
        raise NoPlace(f"{log.game_id} publishes no deal commitment")
    rng = _rng(doc, kind.name, "commitment")
    out = copy.deepcopy(doc)
    # Swap two different cards of the stock that nobody saw: past the cards drawn and the
    # card turned for 垛, so the hand plays out the same. Else change the published hash.
    drawn = sum(1 for e in log.events if e.type is EventType.DRAW) + 1
    stock = out["deal"]["stock"]
    spots = [(i, j) for i in range(drawn, len(stock)) for j in range(i + 1, len(stock))
             if stock[i] != stock[j]]
    if spots:
        i, j = rng.choice(spots)
        stock[i], stock[j] = stock[j], stock[i]
    else:
        sha = out["deal"]["commitment"]["sha256"]
        pos = rng.randrange(len(sha))
        out["deal"]["commitment"]["sha256"] = sha[:pos] + \
            rng.choice([h for h in "0123456789abcdef" if h != sha[pos]]) + sha[pos + 1:]
    out = _document(out, kind, out["events"], out.get("result"), None, len(log.events))
    if _check(out, kind.code, None) is None:
        raise NoPlace(f"tampering with {log.game_id}'s deal did not give one finding")
    return {"log": out, "expect": {"code": str(kind.code), "seq": None}}


def _score_misstated(doc: dict[str, Any], log: Log, kind: Kind, tries: int) -> dict[str, Any]:
    result = doc.get("result")
    if not isinstance(result, dict):
        raise NoPlace(f"{log.game_id} claims no result")
    rng = _rng(doc, kind.name, "score")
    ways = ["scores"]
    if result.get("outcome") == "hu":
        ways += ["points", "huxi", "fans"]
    rng.shuffle(ways)
    for way in ways:
        claimed = copy.deepcopy(result)
        scores = list(claimed.get("scores") or [0, 0, 0])
        if way == "scores":
            a, b = rng.sample(range(3), 2)
            d = rng.randint(1, 5)
            scores[a] += d
            scores[b] -= d
            claimed["scores"] = scores
        elif way == "points":
            up = rng.randint(1, 3)
            points = int(claimed.get("points") or 0)
            claimed["points"] = points + up
            if points:
                claimed["scores"] = [v * (points + up) // points for v in scores]
        elif way == "huxi":
            claimed["huxi"] = int(claimed.get("huxi") or 0) + rng.choice((3, 6))
        else:
            fans = list(claimed.get("fans") or [])
            if fans and rng.random() < 0.5:
                fans.remove(rng.choice(fans))
            else:
                extra = [f for f in ("hai_di", "hong_hu", "dui_dui_hu") if f not in fans]
                fans.append(rng.choice(extra))
            claimed["fans"] = fans
        out = _document(doc, kind, copy.deepcopy(doc["events"]), claimed, None,
                        len(log.events))
        if _check(out, kind.code, None) is not None:
            return {"log": out, "expect": {"code": str(kind.code), "seq": None}}
    raise NoPlace(f"misstating {log.game_id}'s result did not give one finding")


_EDITS: Final[dict[str, Callable[[dict[str, Any], Log, Kind, int], dict[str, Any]]]] = {
    "draw_tampered": _draw_tampered,
    "commitment_tampered": _commitment_tampered,
    "score_misstated": _score_misstated,
}


def mutate(doc: dict[str, Any], kind: str, *, tries: int = 6) -> dict[str, Any]:
    """``{"log": doctored, "expect": {"code", "seq"}}``; raises ``NoPlace`` when the log
    offers no place for ``kind`` (and ``KeyError`` for an unknown kind)."""
    k = KINDS[kind]
    log = parse_log(doc)
    edit = _EDITS.get(kind)
    if edit is not None:
        return edit(doc, log, k, tries)
    return _move_kind(doc, log, k, tries)


__all__ = ["KINDS", "Kind", "NoPlace", "mutate"]
