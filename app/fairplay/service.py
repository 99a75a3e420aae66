"""The scan: every detector over the stored features; features of the hands without.

A hand's features are read while it is verified (inline ingest, the queue worker,
re-audit: ``games.audit.verify`` walks the hand once for the verdict and the features,
``replay.fairplay.fused``) and stored with its verdict, in the same transaction
(``store_features``). ``scan(db)`` reads the features of the stored hands that have none
(stored before, stored unverified, or verified by an engine swapped in: one replay
each, ``replay.fairplay.extract``, read again when ``FEATURES_VERSION`` moves), then
aggregates all stored features (``replay.fairplay.scan``: additions, no replay) and
replaces the ranked pairs and players.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from replay import parse_log
from replay.fairplay import FEATURES_VERSION, HandFeatures, extract
from replay.fairplay import scan as run_detectors
from replay.fairplay.rank import Report

from ..database import Database, transaction
from ..errors import NotFound
from ..models import FairplayScan
from ..models.types import utcnow
from .repository import FairplayRepository

BATCH = 500
PLAYER_PAIRS = 20


@dataclass(frozen=True, slots=True)
class ScanSummary:
    hands: int
    new_hands: int
    skipped: int
    seconds_features: float
    seconds_detectors: float
    pairs: int
    flagged_pairs: int
    players: int
    flagged_players: int

    def line(self) -> str:
        return (f"{self.hands} hands ({self.new_hands} new, {self.skipped} not replayable): "
                f"features {self.seconds_features:.1f}s, detectors {self.seconds_detectors:.1f}s; "
                f"{self.flagged_pairs} of {self.pairs} pairs and {self.flagged_players} of "
                f"{self.players} players flagged")


def features_of(raw: bytes) -> dict[str, Any]:
    """The stored form of one hand's features (``{"skip": why}`` when it cannot be read)."""
    try:
        return extract(parse_log(raw)).to_json()
    except Exception as exc:  # a stored log the engine cannot replay: counted, not fatal
        return {"skip": f"{type(exc).__name__}: {exc}"[:500]}


def store_features(session: Session, rows: Sequence[tuple[int, dict[str, Any] | None]], *,
                   replace: bool = False) -> None:
    """The features read while verifying, ``(log id, features JSON)`` (``None``: not read,
    left to the scan), in the caller's transaction; ``replace`` drops the log's old ones
    first (re-audit)."""
    repo = FairplayRepository(session)
    if replace:
        repo.drop_features([log_id for log_id, _ in rows])
    now = utcnow()
    repo.add_features([{"log_id": log_id, "version": FEATURES_VERSION, "data": data,
                        "created_at": now} for log_id, data in rows if data is not None])


def read_new_features(db: Database, batch: int = BATCH) -> tuple[int, int]:
    """Features of every stored hand without them; (hands read, hands skipped)."""
    with transaction(db.write) as session:
        FairplayRepository(session).drop_stale_features(FEATURES_VERSION)
    done = skipped = 0
    after = 0
    while True:
        with db.read() as session:
            todo = FairplayRepository(session).logs_without_features(after, batch)
        if not todo:
            return done, skipped
        rows = []
        now = utcnow()
        for log_id, raw in todo:
            data = features_of(raw)
            skipped += "skip" in data
            rows.append({"log_id": log_id, "version": FEATURES_VERSION, "data": data,
                         "created_at": now})
        with transaction(db.write) as session:
            FairplayRepository(session).add_features(rows)
        done += len(todo)
        after = todo[-1][0]


def stored_features(db: Database) -> Iterator[HandFeatures]:
    with db.read() as session:
        for data in FairplayRepository(session).iter_features():
            if "skip" not in data:
                yield HandFeatures.from_json(data)


def scan(db: Database, batch: int = BATCH) -> ScanSummary:
    t0 = time.perf_counter()
    new, skipped = read_new_features(db, batch)
    t1 = time.perf_counter()
    report = run_detectors(lambda: stored_features(db))
    t2 = time.perf_counter()
    store_report(db, report, new_hands=new, skipped=skipped, seconds=(t1 - t0, t2 - t1))
    return ScanSummary(report.hands, new, skipped, t1 - t0, t2 - t1, len(report.pairs),
                       sum(p.flagged for p in report.pairs), len(report.players),
                       sum(p.flagged for p in report.players))


def store_report(db: Database, report: Report, *, new_hands: int, skipped: int,
                 seconds: tuple[float, float]) -> None:
    pairs = [{"player_a": p.players[0], "player_b": p.players[1], "rank": i,
              "score": p.score, "flagged": p.flagged, "hands": p.hands, "result": p.to_json()}
             for i, p in enumerate(report.pairs)]
    players = [{"player_id": p.player, "rank": i, "score": p.score, "flagged": p.flagged,
                "hands": p.hands, "result": p.to_json()} for i, p in enumerate(report.players)]
    with transaction(db.write) as session:
        repo = FairplayRepository(session)
        repo.replace_results(pairs, players)
        repo.add_scan(FairplayScan(at=utcnow(), hands=report.hands, new_hands=new_hands,
                                   skipped=skipped, seconds_features=seconds[0],
                                   seconds_detectors=seconds[1]))


# --------------------------------------------------------------------------- reads


def pairs_page(session: Session, limit: int, offset: int, flagged: bool | None) \
        -> dict[str, Any]:
    repo = FairplayRepository(session)
    last = repo.last_scan()
    return {"hands": last.hands if last else 0, "scanned_at": last.at if last else None,
            "pairs": [p.result for p in repo.pairs(limit, offset, flagged)]}


def player_record(session: Session, player_id: str) -> dict[str, Any]:
    repo = FairplayRepository(session)
    row = repo.player(player_id)
    if row is None:
        raise NotFound(f"no fair-play record of player {player_id!r} (run a scan)")
    pairs = repo.pairs_of(player_id, PLAYER_PAIRS)
    partners = repo.partners(player_id, PLAYER_PAIRS)
    return {**row.result, "pairs": [p.result for p in pairs],
            "partners": [{"player": who, "hands": n} for who, n in partners]}
