"""Reads and writes of the fair-play tables. Never commits."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

from sqlalchemy import Table, delete, insert, or_, select
from sqlalchemy.orm import Session

from ..database import among
from ..games.copy import insert_rows
from ..models import FairplayFeatures, FairplayPair, FairplayPlayer, FairplayScan, HandLog

FEATURES = cast(Table, FairplayFeatures.__table__)


class FairplayRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    # ---------------------------------------------------------------- features
    def drop_stale_features(self, version: int) -> int:
        res = self.session.execute(
            delete(FairplayFeatures).where(FairplayFeatures.version != version))
        return int(getattr(res, "rowcount", 0) or 0)

    def logs_without_features(self, after_id: int, limit: int) -> Sequence[tuple[int, bytes]]:
        """(log id, raw bytes) of stored hands with no features, by id, after ``after_id``."""
        rows = self.session.execute(
            select(HandLog.id, HandLog.raw)
            .outerjoin(FairplayFeatures, FairplayFeatures.log_id == HandLog.id)
            .where(FairplayFeatures.log_id.is_(None), HandLog.id > after_id)
            .order_by(HandLog.id)
            .limit(limit)
        ).all()
        return [(int(r[0]), bytes(r[1])) for r in rows]

    def add_features(self, rows: Sequence[dict[str, Any]]) -> None:
        """One statement (or ``COPY``) on the driver: this runs with every verdict."""
        insert_rows(self.session, FEATURES, rows)

    def drop_features(self, log_ids: Sequence[int]) -> None:
        if log_ids:
            self.session.execute(
                delete(FairplayFeatures).where(
                    among(self.session, FairplayFeatures.log_id, log_ids)
                )
            )

    def iter_features(self, batch: int = 2000) -> Iterator[dict[str, Any]]:
        """Every stored hand's features, in the order the hands were stored."""
        last = 0
        while True:
            rows = self.session.execute(
                select(FairplayFeatures.log_id, FairplayFeatures.data)
                .where(FairplayFeatures.log_id > last)
                .order_by(FairplayFeatures.log_id)
                .limit(batch)
            ).all()
            if not rows:
                return
            for log_id, data in rows:
                yield data
                last = log_id

    def feature_count(self) -> int:
        from sqlalchemy import func

        return int(self.session.scalar(select(func.count()).select_from(FairplayFeatures)) or 0)

    # ---------------------------------------------------------------- results
    def replace_results(self, pairs: Sequence[dict[str, Any]],
                        players: Sequence[dict[str, Any]]) -> None:
        self.session.execute(delete(FairplayPair))
        self.session.execute(delete(FairplayPlayer))
        if pairs:
            self.session.execute(insert(FairplayPair), list(pairs))
        if players:
            self.session.execute(insert(FairplayPlayer), list(players))

    def add_scan(self, scan: FairplayScan) -> None:
        self.session.add(scan)

    def last_scan(self) -> FairplayScan | None:
        return self.session.scalars(
            select(FairplayScan).order_by(FairplayScan.id.desc()).limit(1)).first()

    def pairs(self, limit: int, offset: int = 0, flagged: bool | None = None) \
            -> Sequence[FairplayPair]:
        q = select(FairplayPair)
        if flagged is not None:
            q = q.where(FairplayPair.flagged.is_(flagged))
        return self.session.scalars(q.order_by(FairplayPair.rank).offset(offset).limit(limit)
                                    ).all()

    def pairs_of(self, player_id: str, limit: int) -> Sequence[FairplayPair]:
        return self.session.scalars(
            select(FairplayPair)
            .where(or_(FairplayPair.player_a == player_id, FairplayPair.player_b == player_id))
            .order_by(FairplayPair.rank)
            .limit(limit)
        ).all()

    def partners(self, player_id: str, limit: int) -> Sequence[tuple[str, int]]:
        """Who the player sat with most: (other player, shared hands), most first."""
        rows = self.session.execute(
            select(FairplayPair.player_a, FairplayPair.player_b, FairplayPair.hands)
            .where(or_(FairplayPair.player_a == player_id, FairplayPair.player_b == player_id))
            .order_by(FairplayPair.hands.desc(), FairplayPair.rank)
            .limit(limit)
        ).all()
        return [(b if a == player_id else a, int(n)) for a, b, n in rows]

    def pair(self, a: str, b: str) -> FairplayPair | None:
        lo, hi = (a, b) if a < b else (b, a)
        return self.session.scalars(
            select(FairplayPair).where(FairplayPair.player_a == lo, FairplayPair.player_b == hi)
        ).first()

    def player(self, player_id: str) -> FairplayPlayer | None:
        return self.session.get(FairplayPlayer, player_id)

    def players(self, limit: int, flagged: bool | None = None) -> Sequence[FairplayPlayer]:
        q = select(FairplayPlayer)
        if flagged is not None:
            q = q.where(FairplayPlayer.flagged.is_(flagged))
        return self.session.scalars(q.order_by(FairplayPlayer.rank).limit(limit)).all()
