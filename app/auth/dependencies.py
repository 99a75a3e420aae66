"""``Depends(require(Scope.X))``: the calling key, from ``X-API-Key`` or a bearer token.

``require(Scope.A, Scope.B)`` accepts a key holding any one of the scopes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from ..database import Database
from ..errors import Unauthorized
from .scopes import Scope
from .service import Principal, authenticate

api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="An API key")
bearer = HTTPBearer(auto_error=False, description="The same API key as a bearer token")


def _lookup(db: Database, secret: str | None, scopes: tuple[Scope, ...]) -> Principal:
    with db.read() as session:
        return authenticate(session, secret, *scopes)


def _secret(
    request: Request, key: str | None, credentials: HTTPAuthorizationCredentials | None
) -> str:
    """The key sent, or 401 when there is none or it cannot be one (no database read)."""
    if credentials is None and request.headers.get("authorization") is not None:
        raise Unauthorized("the Authorization header is not 'Bearer <API key>'")
    secret = key or (credentials.credentials if credentials else None)
    if not secret or len(secret) > 512:
        raise Unauthorized() if not secret else Unauthorized("the API key is not valid")
    return secret


def require(*scopes: Scope) -> Callable[..., Awaitable[Principal]]:
    async def dependency(
        request: Request,
        key: Annotated[str | None, Depends(api_key_header)],
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> Principal:
        secret = _secret(request, key, credentials)
        return await run_in_threadpool(_lookup, request.app.state.db, secret, scopes)

    dependency.__name__ = "require_" + "_or_".join(scopes)
    return dependency


@dataclass(frozen=True, slots=True)
class KeyCheck:
    """A key whose lookup is left to the endpoint's own transaction (``principal``): the
    single-log ingest checks it in the transaction that stores the log, one trip to the
    database's thread instead of two."""

    secret: str
    scopes: tuple[Scope, ...]

    def principal(self, session: Session) -> Principal:
        """401 unknown or revoked, 403 without the scope (as ``require`` answers)."""
        return authenticate(session, self.secret, *self.scopes)

    async def check_alone(self, db: Database) -> Principal:
        """The lookup in its own session, for an answer that stores nothing (413)."""
        return await run_in_threadpool(_lookup, db, self.secret, self.scopes)


def require_in_transaction(*scopes: Scope) -> Callable[..., Awaitable[KeyCheck]]:
    """``require``, but the key is looked up by the endpoint (``KeyCheck.principal``)
    before anything else it does in its transaction; what it reads is the same."""

    async def dependency(
        request: Request,
        key: Annotated[str | None, Depends(api_key_header)],
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> KeyCheck:
        return KeyCheck(_secret(request, key, credentials), scopes)

    dependency.__name__ = "require_" + "_or_".join(scopes)
    return dependency
