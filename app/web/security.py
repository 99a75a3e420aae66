"""Console sessions and CSRF.

The session is one cookie signed with ``PAOHUZI_SECRET_KEY`` (itsdangerous, with a
time stamp): HTTP-only, ``SameSite=Lax``, ``Secure`` when configured. It carries the
operator id (once signed in) and a random CSRF token; every form posts the token
back and it is compared in constant time. Signing in makes a new token.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..models.operator import Operator
from ..operators.service import active_operator
from .settings import WebSettings, get_web_settings

COOKIE = "paohuzi_ops"
SALT = "paohuzi-ops-session-v1"


class SignInRequired(Exception):
    """Raised by console routes without a signed-in operator: answered by a redirect."""

    def __init__(self, next_url: str) -> None:
        super().__init__(next_url)
        self.next_url = next_url


class CsrfFailed(Exception):
    """A form came back without the session's CSRF token."""


@dataclass(slots=True)
class WebSession:
    csrf: str
    operator_id: int | None = None
    #: set when the cookie must be (re)written on the response ...
    dirty: bool = False
    operator: Operator | None = None
    #: ... and worth writing: a page used the CSRF token, or the operator changed
    #: (a public page seen by someone without a cookie sets none).
    needed: bool = False

    @property
    def token(self) -> CsrfToken:
        return CsrfToken(self)

    def payload(self) -> dict[str, Any]:
        return {"c": self.csrf, "o": self.operator_id}


class CsrfToken:
    """The session's CSRF token for a template; using it makes the cookie worth sending."""

    def __init__(self, session: WebSession) -> None:
        self.session = session

    def __str__(self) -> str:
        self.session.needed = True
        return self.session.csrf

    def __html__(self) -> str:
        return str(self)


def _serializer(request: Request) -> URLSafeTimedSerializer:
    secret = request.app.state.settings.secret_key.get_secret_value()
    return URLSafeTimedSerializer(secret, salt=SALT)


def web_settings(request: Request) -> WebSettings:
    found = getattr(request.app.state, "web_settings", None)
    return found if isinstance(found, WebSettings) else get_web_settings()


def load_session(request: Request) -> WebSession:
    """The request's session (cached on ``request.state``); a new one if there is none."""
    cached = getattr(request.state, "web_session", None)
    if isinstance(cached, WebSession):
        return cached
    settings = web_settings(request)
    session: WebSession | None = None
    token = request.cookies.get(COOKIE)
    if token:
        try:
            data = _serializer(request).loads(token, max_age=settings.session_hours * 3600)
            if isinstance(data, dict) and isinstance(data.get("c"), str):
                op = data.get("o")
                op_id = op if isinstance(op, int) else None
                session = WebSession(csrf=data["c"], operator_id=op_id)
        except BadSignature:
            session = None
    if session is None:
        session = WebSession(csrf=secrets.token_urlsafe(32), dirty=True)
    if session.operator_id is not None:
        with request.app.state.db.read() as db_session:
            session.operator = active_operator(db_session, session.operator_id)
            if session.operator is not None:
                db_session.expunge(session.operator)
        if session.operator is None:  # deleted or disabled since: signed out
            session.operator_id = None
            session.dirty = session.needed = True
    request.state.web_session = session
    return session


def start_session(request: Request, operator: Operator) -> WebSession:
    """After a good password: a fresh CSRF token, the operator in the cookie."""
    session = WebSession(
        csrf=secrets.token_urlsafe(32),
        operator_id=operator.id,
        dirty=True,
        operator=operator,
        needed=True,
    )
    request.state.web_session = session
    return session


def end_session(request: Request) -> WebSession:
    session = WebSession(csrf=secrets.token_urlsafe(32), dirty=True, needed=True)
    request.state.web_session = session
    return session


def save_session(request: Request, response: Response) -> None:
    session = getattr(request.state, "web_session", None)
    if not isinstance(session, WebSession) or not (session.dirty and session.needed):
        return
    settings = web_settings(request)
    response.set_cookie(
        COOKIE,
        _serializer(request).dumps(session.payload()),
        max_age=settings.session_hours * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
    )


def check_csrf(request: Request, sent: str | None) -> WebSession:
    """The session when ``sent`` is its CSRF token; raises ``CsrfFailed`` otherwise."""
    if COOKIE not in request.cookies:
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
    if "\\" in target or "\r" in target or "\n" in target:
        return "/ops"
    return target
