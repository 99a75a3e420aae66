"""Console access rules: sign-in required, CSRF checked, redirects kept on this site.

Sessions themselves (cookies, rows) are ``app.web.session``.
"""

from __future__ import annotations

import hmac

from fastapi import Request

from ..models.operator import Operator
from .session import COOKIE, CSRF_COOKIE, WebSession, load_session


class SignInRequired(Exception):
    """Raised by console routes without a signed-in operator: answered by a redirect."""

    def __init__(self, next_url: str) -> None:
        super().__init__(next_url)
        self.next_url = next_url


class CsrfFailed(Exception):
    """A form came back without the session's CSRF token."""


def check_csrf(request: Request, sent: str | None) -> WebSession:
    """The session when ``sent`` is its CSRF token; raises ``CsrfFailed`` otherwise."""
    if COOKIE not in request.cookies and CSRF_COOKIE not in request.cookies:
        raise CsrfFailed()
    session = load_session(request)
    if not sent or not hmac.compare_digest(sent.encode(), session.csrf.encode()):
        raise CsrfFailed()
    return session


def require_operator(request: Request) -> Operator:
    session = load_session(request)
    if session.operator is None:
        raise SignInRequired(
            safe_next(
                str(request.url.path) + (f"?{request.url.query}" if request.url.query else "")
            )
        )
    return session.operator


def safe_next(target: str | None) -> str:
    """Only console paths on this site (no open redirect)."""
    if not target or not target.startswith("/ops") or target.startswith("//"):
        return "/ops"
    if "\\" in target or "\r" in target or "\n" in target or "\x00" in target:
        return "/ops"
    return target
