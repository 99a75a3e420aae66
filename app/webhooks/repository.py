"""Every query on webhook subscriptions, deliveries and attempts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.orm import Session

from ..database import shared_read
from ..models import DeliveryState, WebhookAttempt, WebhookDelivery, WebhookSubscription

DELIVERIES = cast(Table, WebhookDelivery.__table__)
SUBS = cast(Table, WebhookSubscription.__table__)


#: built once, so that its cache key is computed once (it is run by every ingest).
_ACTIVE_FILTERS = (
    select(SUBS.c.id, SUBS.c.codes, SUBS.c.rulesets, SUBS.c.statuses)
    .where(SUBS.c.active.is_(True))
    .order_by(SUBS.c.id)
)


class WebhookRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def add_subscription(self, subscription: WebhookSubscription) -> WebhookSubscription:
        self.session.add(subscription)
        self.session.flush()
        return subscription

    def active_filters(self) -> list[tuple[int, list[str], list[str], list[str]]]:
        """``(id, codes, rulesets, statuses)`` of the active subscriptions (one light
        query per ingest transaction, once a group commit: no ORM objects)."""
        return shared_read(self.session, "active_filters", self._active_filters)

    def _active_filters(self) -> list[tuple[int, list[str], list[str], list[str]]]:
        rows = self.session.connection().execute(_ACTIVE_FILTERS)  # Core, built once
        return [(r.id, r.codes, r.rulesets, r.statuses) for r in rows]

    def subscriptions(self, *, active_only: bool = False) -> list[WebhookSubscription]:
        stmt = select(WebhookSubscription).order_by(WebhookSubscription.id)
        if active_only:
            stmt = stmt.where(WebhookSubscription.active.is_(True))
        return list(self.session.scalars(stmt))

    def subscription(self, subscription_id: int) -> WebhookSubscription | None:
        return self.session.get(WebhookSubscription, subscription_id)

    def delete_subscription(self, subscription: WebhookSubscription) -> None:
        self.session.delete(subscription)

    def insert_deliveries(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        if not rows:
            return []
        result = self.session.execute(insert(DELIVERIES).returning(DELIVERIES.c.id), list(rows))
        return [row.id for row in result]

    def delivery(self, delivery_id: int, *, lock: bool = False) -> WebhookDelivery | None:
        stmt = select(WebhookDelivery).where(WebhookDelivery.id == delivery_id)
        if lock:
            stmt = stmt.with_for_update()
        return self.session.scalars(stmt).first()

    def deliveries(
        self, subscription_id: int, state: DeliveryState | None, limit: int, before: int | None
    ) -> list[WebhookDelivery]:
        stmt = select(WebhookDelivery).where(WebhookDelivery.subscription_id == subscription_id)
        if state is not None:
            stmt = stmt.where(WebhookDelivery.state == str(state))
        if before is not None:
            stmt = stmt.where(WebhookDelivery.id < before)
        return list(self.session.scalars(stmt.order_by(WebhookDelivery.id.desc()).limit(limit)))

    def due(self, now: datetime, limit: int) -> list[int]:
        """Pending deliveries whose next attempt is due (the SQLite dispatcher)."""
        stmt = (
            select(WebhookDelivery.id)
            .where(
                WebhookDelivery.state == str(DeliveryState.PENDING),
                WebhookDelivery.next_attempt_at <= now,
            )
            .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
            .limit(limit)
        )
        return list(self.session.scalars(stmt))

    def claim(self, delivery_id: int, now: datetime, until: datetime) -> bool:
        """Take a due delivery for one attempt (other dispatchers skip it until ``until``)."""
        result = self.session.execute(
            update(DELIVERIES)
            .where(
                DELIVERIES.c.id == delivery_id,
                DELIVERIES.c.state == str(DeliveryState.PENDING),
                DELIVERIES.c.next_attempt_at <= now,
            )
            .values(next_attempt_at=until)
        )
        return bool(getattr(result, "rowcount", 0))

    def next_due(self) -> datetime | None:
        stmt = select(WebhookDelivery.next_attempt_at).where(
            WebhookDelivery.state == str(DeliveryState.PENDING)
        )
        return self.session.scalars(stmt.order_by(WebhookDelivery.next_attempt_at).limit(1)).first()

    def attempts(self, delivery_id: int) -> list[WebhookAttempt]:
        stmt = select(WebhookAttempt).where(WebhookAttempt.delivery_id == delivery_id)
        return list(self.session.scalars(stmt.order_by(WebhookAttempt.number)))

    def add_attempt(self, attempt: WebhookAttempt) -> None:
        self.session.add(attempt)
