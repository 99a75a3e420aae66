"""``Depends(require(Scope.X))``: the calling key, from ``X-API-Key`` or a bearer token.

``require(Scope.A, Scope.B)`` accepts a key holding any one of the scopes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from ..database import Database
from ..errors import Unauthorized
from .scopes import Scope
from .service import Principal, authenticate

api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="An API key")
bearer = HTTPBearer(auto_error=False, description="The same API key as a bearer token")


def _lookup(db: Database, secret: str | None, scopes: tuple[Scope, ...]) -> Principal:
    with db.read() as session:
        return authenticate(session, secret, *scopes)


def require(*scopes: Scope) -> Callable[..., Awaitable[Principal]]:
    async def dependency(
        request: Request,
        key: Annotated[str | None, Depends(api_key_header)],
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> Principal:
        if credentials is None and request.headers.get("authorization") is not None:
            raise Unauthorized("the Authorization header is not 'Bearer <API key>'")
        secret = key or (credentials.credentials if credentials else None)
        if not secret or len(secret) > 512:
            raise Unauthorized() if not secret else Unauthorized("the API key is not valid")
        return await run_in_threadpool(_lookup, request.app.state.db, secret, scopes)

    dependency.__name__ = "require_" + "_or_".join(scopes)
    return dependency
