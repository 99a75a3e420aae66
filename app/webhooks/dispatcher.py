"""Webhook deliveries without a queue (SQLite): a thread in the server process attempts
the due deliveries, woken after each commit that made some, and otherwise when the
next retry falls due (the backoff lives in ``next_attempt_at``)."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import TYPE_CHECKING

from ..database import Database, transaction
from ..models.types import utcnow
from ..settings import Settings
from .repository import WebhookRepository
from .signals import WAKE

if TYPE_CHECKING:  # imported by the thread: PostgreSQL servers never load it
    import httpx

logger = logging.getLogger(__name__)

BATCH = 50
LONGEST_SLEEP = 5.0


class Dispatcher:
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="webhook-dispatcher", daemon=True)

    def start(self) -> Dispatcher:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        WAKE.set()
        self.thread.join(timeout=10)

    def run_once(self, http: httpx.Client) -> float:
        """Attempt every due delivery; the seconds until the next one is due."""
        from .delivery import deliver

        while not self.stopping.is_set():
            with transaction(self.db.read) as session:
                due = WebhookRepository(session).due(utcnow(), BATCH)
            if not due:
                break
            lease = timedelta(seconds=2 * self.settings.webhook_timeout_seconds + 5)
            for delivery_id in due:
                now = utcnow()
                with transaction(self.db.write) as session:
                    mine = WebhookRepository(session).claim(delivery_id, now, now + lease)
                if mine:  # another process (serve --workers N) may have taken it
                    deliver(self.db, self.settings, http, delivery_id)
        with transaction(self.db.read) as session:
            nxt = WebhookRepository(session).next_due()
        if nxt is None:
            return LONGEST_SLEEP
        return max(0.0, min(LONGEST_SLEEP, (nxt - utcnow()).total_seconds()))

    def _loop(self) -> None:
        import httpx

        with httpx.Client(timeout=self.settings.webhook_timeout_seconds) as http:
            while not self.stopping.is_set():
                WAKE.clear()  # before looking: a commit after this look wakes the next wait
                try:
                    wait = self.run_once(http)
                except Exception:  # the database may be away for a while: try again
                    logger.exception("webhook dispatcher")
                    wait = LONGEST_SLEEP
                WAKE.wait(wait)


def start_dispatcher(db: Database, settings: Settings) -> Dispatcher | None:
    """The dispatcher, on SQLite only (PostgreSQL delivers through the queue's workers)."""
    if db.engine.dialect.name != "sqlite":
        return None
    return Dispatcher(db, settings).start()
