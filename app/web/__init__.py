"""Server-rendered pages: replays (``/g/…``), players (``/p/…``), home, and the operator
console (``/ops``). ``install(app)`` is called by the app factory."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from .errors import PageError
from .security import CsrfFailed, SignInRequired
from .session import save_session
from .templating import STATIC, render


async def _page_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PageError)
    return render(
        request,
        "error.html",
        {"title": exc.title, "message": exc.message},
        status_code=exc.status_code,
    )


async def _sign_in_required(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SignInRequired)
    from urllib.parse import quote

    response = RedirectResponse(
        f"/ops/sign-in?next={quote(exc.next_url, safe='')}", status_code=303
    )
    save_session(request, response)
    return response


async def _csrf_failed(request: Request, exc: Exception) -> Response:
    return render(
        request,
        "error.html",
        {
            "title": "Form expired",
            "message": "This form was not sent from a page of this console session "
            "(missing or wrong CSRF token). Nothing was changed; reload and try again.",
        },
        status_code=403,
    )


def install(app: FastAPI) -> None:
    from ..fairplay import views as fairplay_views
    from . import ops, ops_cases, pages

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.add_exception_handler(PageError, _page_error)
    app.add_exception_handler(SignInRequired, _sign_in_required)
    app.add_exception_handler(CsrfFailed, _csrf_failed)
    app.include_router(fairplay_views.router)
    app.include_router(ops.router)
    app.include_router(ops_cases.router)
    app.include_router(pages.router)
