"""Recording deliveries when verdicts are stored, managing subscriptions, replays.

``record_deliveries`` runs in the transaction that stores the verdicts: a delivery
exists exactly when its verdict does. On PostgreSQL each delivery is a queue job
enqueued in that same transaction; on SQLite the server's dispatcher thread is woken
after the commit (``dispatcher.WAKE``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import event
from sqlalchemy.orm import Session

from ..errors import Conflict, NotFound
from ..games.audit import VerdictData
from ..models import DeliveryState, WebhookDelivery, WebhookSubscription
from ..models.types import utcnow
from . import matching
from .repository import WebhookRepository
from .signals import WAKE


@dataclass(frozen=True, slots=True)
class NewVerdict:
    verdict_id: int
    ruleset: str
    data: VerdictData


def _is_postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def enqueue(session: Session, delivery_ids: Sequence[int]) -> None:
    """Have these deliveries attempted now: a job each on PostgreSQL, else the dispatcher."""
    if not delivery_ids:
        return
    if _is_postgres(session):
        from ..jobs import queue

        for delivery_id in delivery_ids:
            queue.defer(
                session,
                queue.DELIVER,
                queue=queue.WEBHOOK_QUEUE,
                queueing_lock=f"webhook:{delivery_id}",
                delivery_id=delivery_id,
            )
    else:
        event.listen(session, "after_commit", lambda _s: WAKE.set(), once=True)


def record_deliveries(session: Session, verdicts: Sequence[NewVerdict]) -> list[int]:
    """A pending delivery for each (verdict, subscription) that matches; their ids."""
    if not verdicts:
        return []
    repo = WebhookRepository(session)
    subscriptions = repo.active_filters()
    if not subscriptions:
        return []
    now = utcnow()
    rows = []
    for sub_id, codes, rulesets, statuses in subscriptions:
        filters = matching.Filters(frozenset(codes), frozenset(rulesets), frozenset(statuses))
        for v in verdicts:
            findings = matching.matching_findings(filters, v.ruleset, v.data)
            if findings is None:
                continue
            rows.append(
                {
                    "subscription_id": sub_id,
                    "verdict_id": v.verdict_id,
                    "game_id": v.data.verdict.game_id,
                    "body": matching.body(v.ruleset, v.data, findings),
                    "state": str(DeliveryState.PENDING),
                    "attempts": 0,
                    "round_attempts": 0,
                    "next_attempt_at": now,
                    "created_at": now,
                }
            )
    ids = repo.insert_deliveries(rows)
    enqueue(session, ids)
    return ids


def create_subscription(
    session: Session,
    *,
    name: str,
    url: str,
    secret: str | None,
    codes: Sequence[str],
    rulesets: Sequence[str],
    statuses: Sequence[str],
) -> WebhookSubscription:
    subscription = WebhookSubscription(
        name=name,
        url=url,
        secret=secret or f"whsec_{secrets.token_urlsafe(32)}",
        codes=sorted(set(codes)),
        rulesets=sorted(set(rulesets)),
        statuses=sorted(set(statuses)),
        active=True,
        created_at=utcnow(),
    )
    return WebhookRepository(session).add_subscription(subscription)


def get_subscription(session: Session, subscription_id: int) -> WebhookSubscription:
    found = WebhookRepository(session).subscription(subscription_id)
    if found is None:
        raise NotFound(f"no webhook subscription {subscription_id}")
    return found


def get_delivery(session: Session, delivery_id: int, *, lock: bool = False) -> WebhookDelivery:
    found = WebhookRepository(session).delivery(delivery_id, lock=lock)
    if found is None:
        raise NotFound(f"no webhook delivery {delivery_id}")
    return found


def replay(session: Session, delivery_id: int) -> WebhookDelivery:
    """Send a failed (or delivered) delivery again, with a fresh round of attempts."""
    delivery = get_delivery(session, delivery_id, lock=True)
    if delivery.state == str(DeliveryState.PENDING):
        raise Conflict(f"delivery {delivery_id} is still pending; it is being retried")
    delivery.state = str(DeliveryState.PENDING)
    delivery.round_attempts = 0
    delivery.next_attempt_at = utcnow()
    session.flush()
    enqueue(session, [delivery.id])
    return delivery
