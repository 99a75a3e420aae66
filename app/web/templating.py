"""Jinja2 with autoescape always on, and the page response helper."""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..middleware import SECURITY_HEADERS
from .hand_view import KIND_LABELS, human
from .names import FAN_LABELS, cn
from .session import load_session, save_session

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"

_VERSIONS: dict[str, str] = {}


def static_url(name: str) -> str:
    version = _VERSIONS.get(name)
    if version is None:
        data = (STATIC / name).read_bytes()
        version = _VERSIONS[name] = hashlib.sha256(data).hexdigest()[:10]
    return f"/static/{name}?v={version}"


def game_url(game_id: str, **query: Any) -> str:
    q = {k: v for k, v in query.items() if v is not None}
    url = f"/g/{quote(game_id, safe='')}"
    return f"{url}?{urlencode(q)}" if q else url


def player_url(player_id: str) -> str:
    return f"/p/{quote(player_id, safe='')}"


def when(value: datetime | None) -> str:
    return "—" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


def _env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,  # every value is escaped, whatever the template's name
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(
        static_url=static_url,
        game_url=game_url,
        player_url=player_url,
        KIND_LABELS=KIND_LABELS,
        FAN_LABELS=FAN_LABELS,
    )
    env.filters["when"] = when
    env.filters["cn"] = cn
    env.filters["human"] = human
    return env


ENV = _env()


def render(
    request: Request, template: str, context: dict[str, Any], status_code: int = 200
) -> HTMLResponse:
    session = load_session(request)
    body = ENV.get_template(template).render(
        request=request,
        csrf_token=session.csrf_token,
        operator=session.operator,
        **context,
    )
    response = HTMLResponse(body, status_code=status_code, headers=SECURITY_HEADERS)
    response.headers["Cache-Control"] = "no-store"
    save_session(request, response)
    return response
