"""Per-hand fair-play features, extracted in ONE replay pass of a hand.

Everything the detectors need from a hand is read while the hand is re-executed
once on the real game state (``replay.state.State``), and kept as small integer
records so that a scan over many stored hands only adds numbers:

- ``discards``: how many cards each seat discarded (the chances to feed);
- ``claims``: every 吃/碰/胡 on a *discarded* card: (seq, discarder, taker, claim mask);
- ``choices``: every discard made with at least two kinds to choose from, with, on
  the true hands (``reach``), what each other seat could have claimed of the card
  thrown and how many of the kinds it could have thrown each other seat could use,
  and for the hidden-information detector the danger of the thrown card and of
  the options that looked the same *on the discarder's view* (same number of unseen
  copies);
- ``passes``: every 吃/碰/胡 a seat could make and let go (过张 and 臭胡 chances as
  ``claims.passed_chances``/``refused_wins`` define them), with who got the card;
- ``scores``: the expected scores (the verdict's, not the claimed ones).

The record is JSON-able (``to_json``/``from_json``) and versioned (``FEATURES_VERSION``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from ..cards import NUM_KINDS
from ..claims import CL_HU, Claim, Window, passed_chances, refused_wins
from ..model import EV_DISCARD, EV_PAO, Event, EventType, Log
from ..state import Impossible, State
from .reach import ANY, CHI, CHOSEN, HU, PAO, PENG, reach_others

FEATURES_VERSION: Final = 1

_CLAIM_MASK: Final = {EventType.HU: HU, EventType.PENG: PENG, EventType.CHI: CHI,
                      EventType.PAO: PAO}
_CLAIM_OF: Final = {EventType.HU: Claim.HU, EventType.PENG: Claim.PENG,
                    EventType.CHI: Claim.CHI, EventType.PAO: Claim.PAO}


class Choice(NamedTuple):  # (a tuple: made for every discard with a choice)
    """One discard with a choice (two kinds or more it could throw)."""

    seq: int
    seat: int
    #: kinds it could throw
    options: int
    #: claim masks of ``next`` and ``prev`` on the card thrown (true hands)
    got_next: int
    got_prev: int
    #: of the options, how many ``next`` / ``prev`` could have claimed (吃/碰/胡)
    use_next: int
    use_prev: int
    #: the card thrown could be claimed by an opponent (any claim, 跑 included)
    danger: int
    #: options with the same number of copies unseen by the discarder as the card thrown
    same_view: int
    #: of those, how many were dangerous on the true hands
    same_view_danger: int


class Pass(NamedTuple):
    """A claim a seat could make and let go."""

    seq: int  # the event that closed the window (the claim, or the next draw)
    passer: int
    taker: int  # -1: nobody took the card
    src: int
    #: what the passer could have done (HU, PENG or CHI)
    could: int


@dataclass(frozen=True, slots=True)
class HandFeatures:
    game_id: str
    ruleset: str
    players: tuple[str, str, str]
    #: expected scores; ``None`` when the hand has none (invalid)
    scores: tuple[int, int, int] | None
    discards: tuple[int, int, int]
    #: (seq, discarder, taker, claim mask) for every claim on a discarded card
    claims: tuple[tuple[int, int, int, int], ...]
    choices: tuple[Choice, ...]
    passes: tuple[Pass, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "v": FEATURES_VERSION, "g": self.game_id, "r": self.ruleset,
            "p": list(self.players), "s": None if self.scores is None else list(self.scores),
            "d": list(self.discards), "c": [list(c) for c in self.claims],
            "x": [[c.seq, c.seat, c.options, c.got_next, c.got_prev, c.use_next, c.use_prev,
                   c.danger, c.same_view, c.same_view_danger] for c in self.choices],
            "q": [[p.seq, p.passer, p.taker, p.src, p.could] for p in self.passes],
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> HandFeatures:
        p = d["p"]
        s = d["s"]
        dd = d["d"]
        return HandFeatures(
            game_id=str(d["g"]), ruleset=str(d["r"]), players=(p[0], p[1], p[2]),
            scores=None if s is None else (int(s[0]), int(s[1]), int(s[2])),
            discards=(int(dd[0]), int(dd[1]), int(dd[2])),
            claims=tuple((int(c[0]), int(c[1]), int(c[2]), int(c[3])) for c in d["c"]),
            choices=tuple(Choice(*(int(v) for v in x)) for x in d["x"]),
            passes=tuple(Pass(*(int(v) for v in q)) for q in d["q"]),
        )


def _unseen(state: State, seat: int) -> list[int]:
    """Copies of each kind the seat cannot see (not in its hand, rows or face-up melds)."""
    seen = list(state.table.seats[seat].hand)
    for s, st in enumerate(state.table.seats):
        for k in st.row:
            seen[k] += 1
        for m in st.melds:
            for k in m.cards if s == seat else m.cards[:m.face_up_count()]:
                seen[k] += 1
    return [4 - n if n < 4 else 0 for n in seen]


def _choice(state: State, seq: int, seat: int, card: int) -> Choice | None:
    hand = state.table.seats[seat].hand
    options = [k for k in range(NUM_KINDS) if 0 < hand[k] < 3]  # (a 坎 never leaves)
    if len(options) < 2 or card not in options:
        return None
    use_next = use_prev = 0
    dangerous = 0  # bit k: an opponent could claim kind k
    reached = reach_others(state, seat, options)
    for k, (mn, mp) in reached.items():
        if mn & CHOSEN:
            use_next += 1
        if mp & CHOSEN:
            use_prev += 1
        if (mn | mp) & ANY:
            dangerous |= 1 << k
    got = reached[card]
    unseen = _unseen(state, seat)
    u = unseen[card]
    same = [k for k in options if unseen[k] == u]
    return Choice(seq, seat, len(options), got[0], got[1], use_next, use_prev,
                  (dangerous >> card) & 1, len(same), sum((dangerous >> k) & 1 for k in same))


class Reader:
    """Reads a hand's features while something else walks the hand over its ``State``:
    ``before``/``after`` each event applied (the ``replay.audit.Audit`` ``watch``, so that
    verification and features are one walk), then ``features`` on the final state."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.discards = [0, 0, 0]
        self.claims: list[tuple[int, int, int, int]] = []
        self.choices: list[Choice] = []
        self.passes: list[Pass] = []
        self.window: Window | None = None
        #: events seen (``before`` calls)
        self.seen = 0

    def before(self, seq: int, event: Event, state: State) -> None:
        self.seen += 1
        w = self.window = state.window
        if event.type is EV_DISCARD and event.seat is not None \
                and event.card is not None and w is None:
            self.discards[event.seat] += 1
            c = _choice(state, seq, event.seat, event.card)
            if c is not None:
                self.choices.append(c)

    def after(self, seq: int, event: Event, state: State) -> None:
        w = self.window
        if w is not None and state.window is not w:
            _closed(seq, event, w, self.claims, self.passes)

    def features(self, state: State) -> HandFeatures:
        log, d = self.log, self.discards
        scores = state.returns() if state.expected is not None else None
        return HandFeatures(log.game_id, log.ruleset, log.players, scores, (d[0], d[1], d[2]),
                            tuple(self.claims), tuple(self.choices), tuple(self.passes))


def extract(log: Log) -> HandFeatures:
    """Replay the hand once and read its features (see the module doc)."""
    state = State(log)
    reader = Reader(log)
    try:
        for i, e in enumerate(log.events):
            reader.before(i, e, state)
            state.apply(e)
            reader.after(i, e, state)
        if not state.is_terminal and not state.invalid:
            state.finish()
    except Impossible:
        pass
    return reader.features(state)


def _closed(i: int, e: Event, w: Window, claims: list[tuple[int, int, int, int]],
            passes: list[Pass]) -> None:
    """The window on ``w.card`` closed with event ``e``: the claim and the passes."""
    taker: int | None = None
    claim: Claim | None = None
    if e.type in _CLAIM_OF and e.card == w.card and e.seat is not None:
        taker, claim = e.seat, _CLAIM_OF[e.type]
    if taker is not None and not w.drawn and e.type is not EV_PAO:
        claims.append((i, w.src, taker, _CLAIM_MASK[e.type]))
    if not w.hu and w.peng is None and not w.chi:
        return  # nobody could have claimed the card: nothing passed (most windows)
    t = -1 if taker is None else taker
    for s in refused_wins(w, taker if claim is CL_HU else None):
        passes.append(Pass(i, s, t, w.src, HU))
    for s, could_peng in passed_chances(w, taker, claim):
        passes.append(Pass(i, s, t, w.src, PENG if could_peng else CHI))
