"""The parsed ``paohuzi-log/1`` document as typed, immutable values.

``replay.logformat.parse_log`` builds these from raw bytes; everything after
parsing works on them. Shapes are guaranteed by the parser; table facts (card
counts, whose turn it is) are the engine's to check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from .cards import Card
from .profiles import Profile

FORMAT = "paohuzi-log/1"


class EventType(StrEnum):
    DRAW = "draw"
    DISCARD = "discard"
    TI = "ti"
    WEI = "wei"
    PAO = "pao"
    PENG = "peng"
    CHI = "chi"
    PASS = "pass"
    HU = "hu"
    END = "end"


# Members read on the hot path, bound once: on Python 3.11 reading a member off its
# enum class goes through ``EnumType.__getattr__``'s slot, about 8x a global read
# (docs/performance.md, third pass).
EV_DRAW: Final = EventType.DRAW
EV_DISCARD: Final = EventType.DISCARD
EV_TI: Final = EventType.TI
EV_WEI: Final = EventType.WEI
EV_PAO: Final = EventType.PAO
EV_PENG: Final = EventType.PENG
EV_CHI: Final = EventType.CHI
EV_PASS: Final = EventType.PASS
EV_HU: Final = EventType.HU
EV_END: Final = EventType.END


class EndReason(StrEnum):
    EXHAUSTED = "exhausted"
    ABANDONED = "abandoned"


class Outcome(StrEnum):
    HU = "hu"
    EXHAUSTED = "exhausted"
    ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class Event:
    type: EventType
    seat: int | None = None  # None only for ``end``
    card: Card | None = None  # None for ``end`` and a mandatory 天胡
    groups: tuple[tuple[Card, ...], ...] = ()  # ``chi`` only
    reason: EndReason | None = None  # ``end`` only
    t: int | None = None


@dataclass(frozen=True, slots=True)
class Commitment:
    salt: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Deal:
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    shown: Card
    stock: tuple[Card, ...]
    # The names exactly as written, for the commitment hash.
    hand_names: tuple[tuple[str, ...], ...]
    stock_names: tuple[str, ...]
    commitment: Commitment | None = None


@dataclass(frozen=True, slots=True)
class Match:
    id: str
    hand: int
    #: hands in a row drawn just before this one at this table (changde 黄番, RULES §11)
    drawn_before: int = 0


@dataclass(frozen=True, slots=True)
class Log:
    game_id: str
    ruleset: str
    profile: Profile
    players: tuple[str, str, str]  # player id by seat
    dealer: int
    deal: Deal
    events: tuple[Event, ...]
    #: the producer's claimed settlement, fields as given (validated types).
    result: dict[str, Any] | None = None
    match: Match | None = None
    started_at: str | None = None
    #: the whole document as parsed, for the canonical hash and for display.
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: SHA-256 of the canonical form of ``raw`` (``logformat.log_sha256``), set by the
    #: parser so that it is computed once per log; "" when the log was built otherwise.
    sha256: str = field(default="", compare=False, repr=False)
