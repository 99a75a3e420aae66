"""``Depends(require(Scope.X))``: the calling key, from ``X-API-Key`` or a bearer token."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from ..database import Database
from .scopes import Scope
from .service import Principal, authenticate

api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="An API key")
bearer = HTTPBearer(auto_error=False, description="The same API key as a bearer token")


def _lookup(db: Database, secret: str | None, scope: Scope) -> Principal:
    with db.read() as session:
        return authenticate(session, secret, scope)


def require(scope: Scope) -> Callable[..., Awaitable[Principal]]:
    async def dependency(
        request: Request,
        key: Annotated[str | None, Depends(api_key_header)],
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> Principal:
        secret = key or (credentials.credentials if credentials else None)
        if not secret:
            return authenticate(None, secret, scope)  # type: ignore[arg-type]  # raises 401
        return await run_in_threadpool(_lookup, request.app.state.db, secret, scope)

    dependency.__name__ = f"require_{scope}"
    return dependency
