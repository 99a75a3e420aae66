"""Typed errors that carry their HTTP status; the handlers turn them into JSON bodies.

Every error body has the one shape
``{"error": {"code": "...", "message": "...", "problems": [{"pointer", "expected"}]}}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .schemas import ErrorBody


class AppError(Exception):
    status_code: ClassVar[int] = 500
    code: ClassVar[str] = "internal_error"

    def __init__(
        self,
        message: str,
        problems: list[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems or []
        self.headers = headers
        self.extra = extra or {}

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.problems:
            body["problems"] = self.problems
        body.update(self.extra)
        return {"error": body}


class BadRequest(AppError):
    status_code = 400
    code = "bad_request"


class Unauthorized(AppError):
    status_code = 401
    code = "unauthorized"

    def __init__(self, message: str = "a valid API key is required in the X-API-Key header"):
        super().__init__(message, headers={"WWW-Authenticate": "ApiKey"})


class Forbidden(AppError):
    status_code = 403
    code = "forbidden"


class NotFound(AppError):
    status_code = 404
    code = "not_found"


class Conflict(AppError):
    status_code = 409
    code = "conflict"


class PayloadTooLarge(AppError):
    status_code = 413
    code = "payload_too_large"


class InvalidLog(AppError):
    """The body is not a ``paohuzi-log/1`` document; ``problems`` point at each fault."""

    status_code = 422
    code = "invalid_log"


class InvalidRequest(AppError):
    """A query or body parameter of the API itself is wrong."""

    status_code = 422
    code = "invalid_request"


_DESCRIPTIONS = {
    400: "Bad request",
    401: "No valid API key (X-API-Key header)",
    403: "The API key lacks the scope this needs",
    404: "Not found",
    409: "The game_id is already stored with different content; nothing was changed",
    413: "The body is larger than the configured limit",
    422: "Not valid: each problem names a JSON pointer and what was expected there",
    503: "The database is not reachable",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error statuses an endpoint can answer."""
    return {code: {"description": _DESCRIPTIONS[code], "model": ErrorBody} for code in codes}
