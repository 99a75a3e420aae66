"""Keys, relations and the detector interface shared by the detectors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..cards import next_seat
from .features import HandFeatures
from .stats import Stat

Pair = tuple[str, str]


def pair_key(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def relation(giver: int, receiver: int) -> str:
    """``next``: the receiver plays right after the giver (the one seat that may 吃 its
    discards); ``prev``: the other."""
    return "next" if receiver == next_seat(giver) else "prev"


def third(a: int, b: int) -> int:
    return 3 - a - b


@dataclass(frozen=True, slots=True)
class Evidence:
    detector: str
    game_id: str
    #: the steps (event indexes of the log) that carry it
    seq: tuple[int, ...]
    note: str
    #: how strongly it speaks (for ordering only)
    weight: float

    def to_json(self) -> dict[str, object]:
        return {"detector": self.detector, "game_id": self.game_id, "seq": list(self.seq),
                "note": self.note}


class PairDetector(Protocol):
    name: str

    def add(self, h: HandFeatures) -> None: ...

    def results(self) -> dict[Pair, Stat]: ...

    def evidence(self, h: HandFeatures, a: int, b: int) -> list[Evidence]: ...


class PlayerDetector(Protocol):
    name: str

    def add(self, h: HandFeatures) -> None: ...

    def results(self) -> dict[str, Stat]: ...

    def evidence(self, h: HandFeatures, seat: int) -> list[Evidence]: ...
