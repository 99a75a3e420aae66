"""Signing an operator in, without letting sign-in slow anything else down.

1. A read transaction: is the account or the address locked out (then 429, and no
   password is hashed at all)? The operator's stored hash.
2. No transaction: argon2 verification on a worker thread, at most
   ``sign_in_concurrency`` at once per process (an ``anyio.CapacityLimiter``; waiting
   costs no thread), started at least ``sign_in_hash_interval_seconds`` apart; more
   than ``sign_in_queue`` waiting are answered 429 at once.
3. A short write transaction: the failure counted, or the session row made.

Every failure is a structured ``paohuzi.security`` log event (JSON).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from enum import StrEnum

import anyio
import anyio.to_thread
from fastapi.concurrency import run_in_threadpool

from ..database import Database, transaction
from ..models.types import utcnow
from ..settings import Settings
from . import throttle
from .passwords import hash_password, needs_rehash, verify_password
from .repository import OperatorRepository
from .sessions import NewSession, open_session

security_log = logging.getLogger("paohuzi.security")


class Refusal(StrEnum):
    WRONG = "wrong_password"
    UNKNOWN = "unknown_operator"
    DISABLED = "operator_disabled"
    LOCKED = "locked_out"
    BUSY = "too_many_in_progress"


@dataclass(frozen=True, slots=True)
class SignedIn:
    operator_id: int
    session: NewSession


@dataclass(frozen=True, slots=True)
class Refused:
    reason: Refusal
    #: seconds to wait (a lockout, or too many sign-ins in progress); ``None`` for 401.
    retry_after: int | None = None


@dataclass(frozen=True, slots=True)
class _Account:
    operator_id: int | None
    password_hash: str | None
    active: bool
    retry_after: int | None


class HashPacer:
    """Spaces the starts of password hashes in one process (one per event loop)."""

    def __init__(self) -> None:
        self.last: float | None = None

    async def wait(self, interval: float) -> None:
        now = anyio.current_time()
        if self.last is not None and now < self.last + interval:
            await anyio.sleep(self.last + interval - now)
        self.last = anyio.current_time()


def log_event(reason: Refusal, username: str, address: str, **extra: object) -> None:
    event = {"event": "sign_in_failed", "reason": str(reason), "username": username,
             "address": address, **extra}
    security_log.warning(json.dumps(event, ensure_ascii=False, sort_keys=True))


def _look_up(db: Database, settings: Settings, username: str, address: str) -> _Account:
    with transaction(db.read) as session:
        wait = throttle.retry_after(
            session, throttle.keys(settings, username, address), utcnow()
        )
        operator = None if wait else OperatorRepository(session).by_username(username)
        if operator is None:
            return _Account(None, None, False, wait)
        return _Account(operator.id, operator.password_hash, operator.active, None)


def _locked(db: Database, settings: Settings, username: str, address: str) -> int | None:
    with transaction(db.read) as session:
        return throttle.retry_after(
            session, throttle.keys(settings, username, address), utcnow()
        )


def _failed(db: Database, settings: Settings, username: str, address: str) -> None:
    with transaction(db.write) as session:
        throttle.record_failure(
            session, throttle.keys(settings, username, address), settings, utcnow()
        )


def _succeeded(
    db: Database, settings: Settings, operator_id: int, new_hash: str | None, address: str
) -> NewSession:
    with transaction(db.write) as session:
        operator = OperatorRepository(session).by_id(operator_id)
        assert operator is not None
        if new_hash is not None:
            operator.password_hash = new_hash
        operator.last_sign_in_at = utcnow()
        throttle.clear(session, throttle.keys(settings, operator.username, address)[0])
        return open_session(session, operator_id, address, settings.session_hours)


def _verify(password_hash: str | None, password: str) -> tuple[bool, str | None]:
    ok = verify_password(password_hash, password)
    rehashed = hash_password(password) if ok and password_hash and needs_rehash(password_hash) \
        else None
    return ok, rehashed


async def sign_in(
    db: Database,
    settings: Settings,
    limiter: anyio.CapacityLimiter,
    pacer: HashPacer,
    username: str,
    password: str,
    address: str,
) -> SignedIn | Refused:
    username = username.strip().lower()
    account = await run_in_threadpool(_look_up, db, settings, username, address)
    if account.retry_after is not None:
        log_event(Refusal.LOCKED, username, address, retry_after=account.retry_after)
        return Refused(Refusal.LOCKED, account.retry_after)
    if limiter.statistics().tasks_waiting >= settings.sign_in_queue:
        log_event(Refusal.BUSY, username, address)
        return Refused(Refusal.BUSY, 1)
    async with limiter:
        await pacer.wait(settings.sign_in_hash_interval_seconds)
        # failures recorded while this attempt waited may have locked it out since
        wait = await run_in_threadpool(_locked, db, settings, username, address)
        if wait is None:
            ok, new_hash = await anyio.to_thread.run_sync(
                _verify, account.password_hash, password
            )
    if wait is not None:
        log_event(Refusal.LOCKED, username, address, retry_after=wait)
        return Refused(Refusal.LOCKED, wait)
    if not ok or not account.active or account.operator_id is None:
        reason = (
            Refusal.UNKNOWN if account.operator_id is None
            else Refusal.DISABLED if ok else Refusal.WRONG
        )
        await run_in_threadpool(_failed, db, settings, username, address)
        log_event(reason, username, address)
        return Refused(reason)
    new = await run_in_threadpool(
        _succeeded, db, settings, account.operator_id, new_hash, address
    )
    return SignedIn(account.operator_id, new)
