"""The one bridge between the pages and the rules core: the replay of one hand as data
(cards with faces, the table after every event, the typed expected score), built from
``replay.table_steps`` on the stored log bytes and cached. Every page module reaches the
rules core through this module only; what the pages print is in ``hand_view``.

A step number is an absolute event index: step ``N`` is the table right after event
``N`` (its ``seq``); step ``-1`` is the deal, before any event.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import replay
from replay.cards import FACES, NAMES, card_name, is_red, parse_card
from replay.profiles import PROFILES
from replay.results import FAN_CHINESE, FAN_NAMES, FAN_RANK, FANS, RESULT_FIELDS, Score

__all__ = [
    "DEAL", "FACE", "FAN_CHINESE", "FAN_NAMES", "FAN_RANK", "FANS", "PROFILES",
    "RESULT_FIELDS", "Card", "Hand", "Score", "build_hand", "card", "card_name", "for_seat",
]

DEAL = -1

FACE = dict(zip(NAMES, FACES, strict=True))


def for_seat(step: dict[str, Any], seat: int) -> dict[str, Any]:
    """What one seat may see of a step (the rules core's seat view of the step data)."""
    return replay.for_seat(step, seat)


@dataclass(frozen=True, slots=True)
class Card:
    """One card as drawn on the page. ``name`` is ``"?"`` for a card the viewer cannot see."""

    name: str
    down: bool = False  # face down on the table (shown, but marked, in the full view)
    #: why the kind is 臭 for the seat it sits with: "臭牌" (its own discard), "过张" (a
    #: chance it passed), "" when it is not.
    chou: str = ""

    @property
    def hidden(self) -> bool:
        return self.name == "?"

    @property
    def face(self) -> str:
        return FACE.get(self.name, "")

    @property
    def red(self) -> bool:
        return not self.hidden and is_red(parse_card(self.name))

    @property
    def big(self) -> bool:
        return self.name.startswith("d")

    @property
    def speech(self) -> str:
        """What a screen reader says: the canonical name."""
        if self.hidden:
            return "hidden card"
        extra = ", face down" if self.down else ""
        extra += f", 臭 for this seat ({self.chou})" if self.chou else ""
        return f"{self.face} ({self.name}){extra}"

    @property
    def tip(self) -> str:
        """The tooltip: the code, and why the card is 臭 when it is."""
        if self.hidden:
            return "hidden card"
        if self.chou:
            return f"{self.name} · 臭 ({self.chou}): this seat may not 吃/碰 {self.face}"
        return self.name


def card(name: str | None, **kw: Any) -> Card:
    return Card(name or "?", **kw)


@dataclass(slots=True)
class Hand:
    """A stored hand and its replay."""

    game_id: str
    ruleset: str
    dealer: int
    players: list[str]
    raw_sha256: str
    events: list[dict[str, Any]]
    steps: list[dict[str, Any]]
    verdict: dict[str, Any]
    played_at: Any = None
    stored_engine: str | None = None
    numbers: list[int] = field(default_factory=list)
    #: the expected score, typed (``verdict["score"]["expected"]`` is its JSON)
    expected: Score | None = None

    def __post_init__(self) -> None:
        self.numbers = [s["seq"] for s in self.steps]

    @property
    def first(self) -> int:
        return self.numbers[0]

    @property
    def last(self) -> int:
        return self.numbers[-1]

    def clamp(self, n: int | None) -> int:
        if n is None:
            return self.first
        if n <= self.first:
            return self.first
        if n >= self.last:
            return self.last
        best = self.first
        for k in self.numbers:
            if k <= n:
                best = k
        return best

    def step(self, n: int) -> dict[str, Any]:
        return self.steps[self.numbers.index(self.clamp(n))]

    def step_of_seq(self, seq: int | None, code: str | None = None) -> int:
        """Where a finding or decision is shown: its event; the deal for deal findings,
        the end for the result and for a log that stops early."""
        if seq is None:
            return self.first if code in ("deal_invalid", "commitment_mismatch") else self.last
        return self.clamp(seq)


# --- loading, with a small cache (a log's bytes never change) ----------------------------

_CACHE: OrderedDict[tuple[str, str], Hand] = OrderedDict()
_LOCK = threading.Lock()
_CACHE_SIZE = 64


def build_hand(
    raw: bytes, raw_sha256: str, *, stored_engine: str | None = None, played_at: Any = None
) -> Hand:
    key = (raw_sha256, replay.ENGINE_VERSION)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
    if hit is None:
        log = replay.parse_log(raw)
        result = replay.table_steps(log)
        hit = Hand(
            game_id=log.game_id,
            ruleset=log.ruleset,
            dealer=log.dealer,
            players=list(log.players),
            raw_sha256=raw_sha256,
            events=list(log.raw.get("events") or []),
            steps=result.steps,
            verdict=result.verdict.to_json(),
            expected=result.expected,
        )
        with _LOCK:
            _CACHE[key] = hit
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
    # the cached hand is shared by every request: each gets its own copy of the header
    return dataclasses.replace(hit, stored_engine=stored_engine, played_at=played_at)


# --- one step as the page draws it ----------------------------------------------------------


