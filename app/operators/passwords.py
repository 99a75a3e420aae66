"""Password hashing with argon2id (argon2-cffi's defaults, RFC 9106 low-memory profile)."""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()


@cache
def _dummy() -> str:
    """A hash of a random password, verified against when the username is unknown so that
    a wrong username takes as long as a wrong password. Made on first use, not on import
    (a hash takes ~0.1 s: every command and process that imports this would pay it)."""
    return _hasher.hash("no such operator: constant-time answer")


def warm_up() -> None:
    """Make the dummy hash now (a server's start-up), so that the first sign-in with an
    unknown username takes no longer than later ones."""
    _dummy()


MIN_LENGTH = 10


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _dummy(), password) and password_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)
