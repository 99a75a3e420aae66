"""The signature a receiver checks: HMAC-SHA256 over ``"{timestamp}." + body`` with the
subscription's secret, hex, in ``X-Paohuzi-Signature: sha256=…``; the timestamp (Unix
seconds) in ``X-Paohuzi-Timestamp``. A receiver refuses old timestamps (replays)."""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_HEADER = "X-Paohuzi-Signature"
TIMESTAMP_HEADER = "X-Paohuzi-Timestamp"
DELIVERY_HEADER = "X-Paohuzi-Delivery"
EVENT_HEADER = "X-Paohuzi-Event"
EVENT = "verdict"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


def verify_signature(
    secret: str, timestamp: str, body: bytes, given: str, *, now: int, tolerance: int = 300
) -> bool:
    """What a receiver does (the tests use it): the signature matches and is recent."""
    try:
        ts = int(timestamp)
    except ValueError:
        return False
    if abs(now - ts) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, ts, body), given)
