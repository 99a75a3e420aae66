"""The outermost layer of every answer (API and pages alike), pure ASGI.

- Security headers on every response (the pages' ``Content-Security-Policy`` too:
  nothing is loaded from another host, the API docs included).
- A NUL byte in the path can name nothing stored: 404. In a page's query string: a
  400 page. Neither reaches a route. (API filters with a NUL match nothing: each
  endpoint answers so, see ``app.bounds.storable_text``.)
- An unexpected error becomes a JSON 500 here, and is not re-raised: the server keeps
  the keep-alive connection open (it would otherwise drop it without a word).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("app.errors")

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "object-src 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = ("strict-transport-security", "max-age=31536000")


def _json(status: int, code: str, message: str) -> tuple[int, bytes, bytes]:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    return status, body, b"application/json"


def _page(status: int, title: str) -> tuple[int, bytes, bytes]:
    body = f"<!doctype html><title>{title}</title><h1>{title}</h1>".encode()
    return status, body, b"text/html; charset=utf-8"


def _refusal(scope: Scope) -> tuple[int, bytes, bytes] | None:
    api = str(scope.get("path", "")).startswith("/api/")
    raw_path = bytes(scope.get("raw_path") or b"")
    if "\x00" in str(scope.get("path", "")) or b"%00" in raw_path:
        return _json(404, "not_found", "nothing is stored under a name with a NUL byte") \
            if api else _page(404, "Not found")
    query = bytes(scope.get("query_string") or b"")
    if not api and (b"%00" in query or b"\x00" in query):
        return _page(400, "Bad request")
    return None


class Guard:
    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
        if hsts:
            self.headers.append((HSTS[0].encode(), HSTS[1].encode()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        refusal = _refusal(scope)
        if refusal is not None:
            await _answer(send_with_headers, *refusal)
            return
        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:
            if started:  # mid-stream: nothing can be said any more
                raise
            logger.exception("unhandled error", exc_info=exc)
            await _answer(
                send_with_headers, *_json(500, "internal_error", "the server failed; try again")
            )


async def _answer(send: Any, status: int, body: bytes, content_type: bytes) -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
