"""One delivery attempt: POST the body, signed; record the attempt; schedule the next.

At least once: a worker killed after the POST and before its commit sends the body
again, with the same ``X-Paohuzi-Delivery`` id, by which receivers drop repeats.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

import httpx

from ..database import Database, transaction
from ..models import DeliveryState, WebhookAttempt
from ..models.types import utcnow
from ..settings import Settings
from .repository import WebhookRepository
from .service import get_delivery
from .signing import (
    DELIVERY_HEADER,
    EVENT,
    EVENT_HEADER,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    signature,
)

logger = logging.getLogger(__name__)


def backoff(settings: Settings, failures: int) -> float:
    """Seconds before the next attempt after ``failures`` failed ones: doubling, capped."""
    wait = settings.webhook_backoff_seconds * 2 ** max(failures - 1, 0)
    return float(min(wait, settings.webhook_max_backoff_seconds))


def _post(
    http: httpx.Client, url: str, secret: str, delivery_id: int, body: bytes
) -> tuple[int | None, str | None]:
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "paohuzi-audit-webhooks",
        EVENT_HEADER: EVENT,
        DELIVERY_HEADER: str(delivery_id),
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature(secret, timestamp, body),
    }
    try:
        response = http.post(url, content=body, headers=headers)
    except httpx.HTTPError as exc:
        return None, f"{type(exc).__name__}: {exc}"[:500]
    return response.status_code, None


def deliver(db: Database, settings: Settings, http: httpx.Client, delivery_id: int) -> str:
    """One attempt of a pending delivery; its state afterwards (nothing done if not pending)."""
    with transaction(db.read) as session:
        delivery = get_delivery(session, delivery_id)
        if delivery.state != str(DeliveryState.PENDING):
            return delivery.state
        subscription = WebhookRepository(session).subscription(delivery.subscription_id)
        assert subscription is not None
        url, secret, body = subscription.url, subscription.secret, delivery.body

    started = time.perf_counter()
    status, error = _post(http, url, secret, delivery_id, body)
    took = int((time.perf_counter() - started) * 1000)
    ok = status is not None and 200 <= status < 300

    with transaction(db.write) as session:
        delivery = get_delivery(session, delivery_id, lock=True)
        if delivery.state != str(DeliveryState.PENDING):
            return delivery.state  # another attempt finished first
        now = utcnow()
        delivery.attempts += 1
        delivery.round_attempts += 1
        WebhookRepository(session).add_attempt(
            WebhookAttempt(
                delivery_id=delivery_id,
                number=delivery.attempts,
                at=now,
                status_code=status,
                error=error,
                duration_ms=took,
                ok=ok,
            )
        )
        next_at: datetime | None = None
        if ok:
            delivery.state = str(DeliveryState.DELIVERED)
            delivery.delivered_at = now
            delivery.next_attempt_at = None
        elif delivery.round_attempts >= settings.webhook_max_attempts:
            delivery.state = str(DeliveryState.FAILED)
            delivery.next_attempt_at = None
        else:
            next_at = now + timedelta(seconds=backoff(settings, delivery.round_attempts))
            delivery.next_attempt_at = next_at
        session.flush()
        if next_at is not None and session.get_bind().dialect.name == "postgresql":
            from ..jobs import queue

            queue.defer(
                session,
                queue.DELIVER,
                queue=queue.WEBHOOK_QUEUE,
                schedule_at=next_at,
                delivery_id=delivery_id,
            )
        state = delivery.state
    if not ok:
        logger.info("webhook delivery %s attempt failed: %s", delivery_id, error or status)
    return state
