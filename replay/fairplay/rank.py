"""Every detector over many hands, combined into ranked suspicious pairs and players.

``scan(source)`` makes one pass over the hands' features (``source()`` gives them)
through every detector, combines a pair's detectors into one score (Stouffer's
``Σ z / sqrt(k)`` over the ``k = 5`` pair detectors) and ranks; a second pass over the
hands of the top pairs and players collects their evidence (the hands and exact
steps). A pair is *flagged* when it shared at least ``MIN_HANDS`` hands and its
score reaches ``PAIR_THRESHOLD`` or one detector reaches ``DETECTOR_THRESHOLD``; a
player is flagged when its hidden-information statistic reaches
``DETECTOR_THRESHOLD`` over at least ``MIN_CHOICES`` discards with a choice.
The thresholds and their false-flag rate are in docs/fairplay.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from .common import Evidence, Pair, PairDetector, pair_key
from .coplay import CoPlay
from .features import HandFeatures
from .feed import FeedMatrix
from .flow import PointFlow
from .passes import PassedClaims
from .quality import HiddenInformation
from .stats import NO_STAT, Stat
from .wait import FeedingTheWait

PAIR_DETECTORS: Final = ("feed", "wait", "flow", "passes", "coplay")
PLAYER_DETECTORS: Final = ("quality",)
PAIR_THRESHOLD: Final = 4.5
DETECTOR_THRESHOLD: Final = 5.0
MIN_HANDS: Final = 20
MIN_CHOICES: Final = 100
#: pairs and players whose evidence is collected (the top of each ranking, and every flagged one)
EVIDENCE_TOP: Final = 25
EVIDENCE_ITEMS: Final = 12


@dataclass(frozen=True, slots=True)
class PairResult:
    players: Pair
    score: float
    flagged: bool
    hands: int
    detectors: dict[str, Stat]
    evidence: tuple[Evidence, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), **_scored(self)}


@dataclass(frozen=True, slots=True)
class PlayerResult:
    player: str
    score: float
    flagged: bool
    hands: int
    detectors: dict[str, Stat]
    evidence: tuple[Evidence, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, **_scored(self)}


def _scored(r: PairResult | PlayerResult) -> dict[str, Any]:
    return {"score": round(r.score, 3), "flagged": r.flagged, "hands": r.hands,
            "detectors": {k: v.to_json() for k, v in r.detectors.items()},
            "evidence": [e.to_json() for e in r.evidence]}


@dataclass(frozen=True, slots=True)
class Report:
    hands: int
    pairs: tuple[PairResult, ...]
    players: tuple[PlayerResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {"hands": self.hands, "pairs": [p.to_json() for p in self.pairs],
                "players": [p.to_json() for p in self.players]}


def pair_detectors() -> list[PairDetector]:
    return [FeedMatrix(), FeedingTheWait(), PointFlow(), PassedClaims(), CoPlay()]


def combine(stats: dict[str, Stat]) -> float:
    return sum(stats[d].z for d in PAIR_DETECTORS if d in stats) / math.sqrt(len(PAIR_DETECTORS))


def pair_flagged(score: float, hands: int, stats: dict[str, Stat]) -> bool:
    return hands >= MIN_HANDS and (
        score >= PAIR_THRESHOLD or any(s.z >= DETECTOR_THRESHOLD for s in stats.values()))


def scan(source: Callable[[], Iterable[HandFeatures]], *, evidence: bool = True) -> Report:
    dets = pair_detectors()
    quality = HiddenInformation()
    hands = 0
    per_player: dict[str, int] = {}
    for h in source():
        hands += 1
        for p in h.players:
            per_player[p] = per_player.get(p, 0) + 1
        for d in dets:
            d.add(h)
        quality.add(h)
    shared = next(d for d in dets if isinstance(d, CoPlay)).shared
    results = {d.name: d.results() for d in dets}
    pairs: list[PairResult] = []
    for key, n in shared.items():
        stats = {name: results[name].get(key, NO_STAT) for name in PAIR_DETECTORS}
        score = combine(stats)
        pairs.append(PairResult(key, score, pair_flagged(score, n, stats), n, stats))
    pairs.sort(key=lambda r: (-r.score, r.players))
    qual = quality.results()
    players: list[PlayerResult] = []
    for pid, n in per_player.items():
        s = qual.get(pid, NO_STAT)
        players.append(PlayerResult(pid, s.z, s.n >= MIN_CHOICES and s.z >= DETECTOR_THRESHOLD,
                                    n, {"quality": s}))
    players.sort(key=lambda r: (-r.score, r.player))
    if evidence:
        pairs, players = _with_evidence(source, dets, quality, pairs, players)
    return Report(hands, tuple(pairs), tuple(players))


def _with_evidence(source: Callable[[], Iterable[HandFeatures]], dets: list[PairDetector],
                   quality: HiddenInformation, pairs: list[PairResult],
                   players: list[PlayerResult]) -> tuple[list[PairResult], list[PlayerResult]]:
    want_pairs = {r.players for i, r in enumerate(pairs) if i < EVIDENCE_TOP or r.flagged}
    want_players = {r.player for i, r in enumerate(players) if i < EVIDENCE_TOP or r.flagged}
    found: dict[Pair, list[Evidence]] = {k: [] for k in want_pairs}
    found_p: dict[str, list[Evidence]] = {k: [] for k in want_players}
    for h in source():
        p = h.players
        for a, b in ((0, 1), (0, 2), (1, 2)):
            ev = found.get(pair_key(p[a], p[b]))
            if ev is not None:
                for d in dets:
                    ev += d.evidence(h, a, b)
        for s in range(3):
            evp = found_p.get(p[s])
            if evp is not None:
                evp += quality.evidence(h, s)
    return ([PairResult(r.players, r.score, r.flagged, r.hands, r.detectors,
                        _top(found.get(r.players, []), r.detectors)) for r in pairs],
            [PlayerResult(r.player, r.score, r.flagged, r.hands, r.detectors,
                          _top(found_p.get(r.player, []), r.detectors)) for r in players])


def _top(items: list[Evidence], stats: dict[str, Stat]) -> tuple[Evidence, ...]:
    """The strongest items, from the detectors that speak the loudest first."""
    order = sorted(stats, key=lambda d: -stats[d].z)
    out: list[Evidence] = []
    per = max(1, EVIDENCE_ITEMS // max(1, sum(1 for d in order if stats[d].z > 0)))
    for d in order:
        mine = sorted((e for e in items if e.detector == d),
                      key=lambda e: (-e.weight, e.game_id, e.seq))
        out += mine[:per]
    return tuple(out[:EVIDENCE_ITEMS])
