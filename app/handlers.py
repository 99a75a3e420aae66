"""Exception handlers: every error leaves as ``{"error": {...}}`` JSON.

An unexpected error is answered by ``app.middleware.Guard`` (a JSON 500 that keeps the
connection open).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from .errors import AppError

logger = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def _pointer(loc: tuple[Any, ...]) -> str:
    return "/" + "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in loc)


async def app_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    return JSONResponse(exc.to_json(), status_code=exc.status_code, headers=exc.headers)


async def validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = [
        {"pointer": _pointer(tuple(err.get("loc", ()))), "expected": str(err.get("msg", ""))}
        for err in exc.errors()
    ]
    body = {
        "error": {
            "code": "invalid_request",
            "message": "the request's parameters are not valid",
            "problems": problems,
        }
    }
    return JSONResponse(body, status_code=422)


async def http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI's "error parsing the body": a 422 like any bad body
        body = {"error": {"code": "invalid_request", "message": "the body could not be parsed",
                          "problems": [{"pointer": "/body", "expected": "a JSON document"}]}}
        return JSONResponse(body, status_code=422)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    body = {"error": {"code": code, "message": str(exc.detail)}}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


async def database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The database is down, full or saturated: 503 with ``Retry-After``, never a 500."""
    logger.error("database unavailable: %s", type(exc).__name__, exc_info=exc)
    seconds = request.app.state.settings.retry_after_seconds
    body = {
        "error": {
            "code": "database_unavailable",
            "message": "the database cannot take this request now (unreachable, full or "
            "busy); nothing was stored; try again later",
        }
    }
    return JSONResponse(body, status_code=503, headers={"Retry-After": str(seconds)})


def install(app: FastAPI) -> None:
    app.add_exception_handler(AppError, app_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    for unavailable in (OperationalError, InterfaceError, PoolTimeout):
        app.add_exception_handler(unavailable, database_unavailable)
