"""Key material: 256 random bits, stored as SHA-256 (a key is never kept in clear).

A slow hash (argon2) buys nothing for a 256-bit random secret and would cost
every request tens of milliseconds; a plain SHA-256 lookup is the usual choice.
"""

from __future__ import annotations

import hashlib
import secrets

KEY_PREFIX = "pha_"


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def display_prefix(key: str) -> str:
    return key[: len(KEY_PREFIX) + 6]
