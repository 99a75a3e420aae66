"""Console sessions, as the pages see them.

Two cookies, both HTTP-only, ``SameSite=Lax``, and ``Secure`` unless
``PAOHUZI_DEV_MODE`` is set:

- ``paohuzi_ops``: a signed-in operator's session token (random, 256 bits). The
  session itself is a row (``app.operators.sessions``): its CSRF token, its
  operator, its expiry; signing out or disabling the operator ends it.
- ``paohuzi_csrf``: for a visitor who is not signed in (the sign-in form), a random
  CSRF token signed with the console key (itsdangerous, time-stamped).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..database import Database, transaction
from ..models.operator import Operator
from ..operators.sessions import NewSession, live_session
from ..operators.sessions import end_session as end_stored_session
from ..settings import Settings
from ..system.signing_key import signing_key

COOKIE = "paohuzi_ops"
CSRF_COOKIE = "paohuzi_csrf"
SALT = "paohuzi-ops-csrf-v2"


@dataclass(slots=True)
class WebSession:
    csrf: str
    operator: Operator | None = None
    #: the session token when signed in (from the cookie, or just made).
    token: str | None = None
    #: the cookies must be (re)written on the response ...
    dirty: bool = False
    #: ... and are worth writing: a page used the CSRF token, or the operator changed
    #: (a public page seen by someone without a cookie sets none).
    needed: bool = False

    @property
    def csrf_token(self) -> CsrfToken:
        return CsrfToken(self)


class CsrfToken:
    """The session's CSRF token for a template; using it makes the cookie worth sending."""

    def __init__(self, session: WebSession) -> None:
        self.session = session

    def __str__(self) -> str:
        self.session.needed = True
        return self.session.csrf

    def __html__(self) -> str:
        return str(self)


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _serializer(request: Request) -> URLSafeTimedSerializer:
    key = getattr(request.app.state, "signing_key", None)
    if not isinstance(key, str):
        key = signing_key(settings_of(request), request.app.state.db)
        request.app.state.signing_key = key  # the same value every time: set once
    return URLSafeTimedSerializer(key, salt=SALT)


def _anonymous(request: Request) -> WebSession:
    sent = request.cookies.get(CSRF_COOKIE)
    if sent and len(sent) < 400:
        try:
            data = _serializer(request).loads(
                sent, max_age=settings_of(request).session_hours * 3600
            )
            if isinstance(data, str):
                return WebSession(csrf=data)
        except BadSignature:
            pass
    return WebSession(csrf=secrets.token_urlsafe(32), dirty=True)


def load_session(request: Request) -> WebSession:
    """The request's session (cached on ``request.state``); an anonymous one if none."""
    cached = getattr(request.state, "web_session", None)
    if isinstance(cached, WebSession):
        return cached
    session: WebSession | None = None
    token = request.cookies.get(COOKIE)
    if token:
        db: Database = request.app.state.db
        with transaction(db.read) as db_session:
            live = live_session(db_session, token)
            if live is not None:
                db_session.expunge(live.operator)
                session = WebSession(csrf=live.csrf, operator=live.operator, token=token)
        if session is None:  # ended, expired, disabled or forged: signed out
            session = _anonymous(request)
            session.dirty = session.needed = True
    request.state.web_session = session or _anonymous(request)
    return request.state.web_session  # type: ignore[no-any-return]


def start_session(request: Request, operator: Operator, new: NewSession) -> WebSession:
    """After a good password: the new session's token and CSRF token."""
    session = WebSession(
        csrf=new.csrf, operator=operator, token=new.token, dirty=True, needed=True
    )
    request.state.web_session = session
    return session


def end_session(request: Request) -> WebSession:
    """Sign out: the session row is ended (a copied cookie stops working too)."""
    old = load_session(request)
    if old.token is not None:
        db: Database = request.app.state.db
        with transaction(db.write) as db_session:
            end_stored_session(db_session, old.token)
    session = WebSession(csrf=secrets.token_urlsafe(32), dirty=True, needed=True)
    request.state.web_session = session
    return session


def save_session(request: Request, response: Response) -> None:
    session = getattr(request.state, "web_session", None)
    if not isinstance(session, WebSession) or not (session.dirty and session.needed):
        return
    settings = settings_of(request)
    options = {
        "max_age": settings.session_hours * 3600,
        "path": "/",
        "httponly": True,
        "samesite": "lax",
        "secure": not settings.dev_mode,
    }
    if session.token is not None:
        response.set_cookie(COOKIE, session.token, **options)  # type: ignore[arg-type]
        response.delete_cookie(CSRF_COOKIE, path="/")
        return
    if COOKIE in request.cookies:
        response.delete_cookie(
            COOKIE, path="/", secure=not settings.dev_mode, httponly=True, samesite="lax"
        )
    response.set_cookie(
        CSRF_COOKIE, _serializer(request).dumps(session.csrf), **options  # type: ignore[arg-type]
    )
