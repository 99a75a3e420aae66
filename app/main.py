"""The application factory: ``uvicorn app.main:create_app --factory``."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import RedirectResponse

from . import api_docs, gc_tuning, handlers, openapi
from .api import PREFIX
from .api import router as api_router
from .database import Database
from .middleware import Guard
from .operators import passwords
from .settings import Settings, get_settings
from .webhooks.dispatcher import start_dispatcher


def create_app(settings: Settings | None = None, db: Database | None = None) -> FastAPI:
    settings = settings or get_settings()
    owns_db = db is None
    database = db or Database.from_settings(settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        gc_tuning.tune()
        passwords.warm_up()
        # Webhooks on SQLite (no queue): a thread of this process delivers them.
        dispatcher = start_dispatcher(database, settings) if owns_db else None
        yield
        if dispatcher is not None:
            dispatcher.stop()
        if owns_db:
            database.dispose()

    app = FastAPI(
        title="paohuzi-audit",
        version="1.0",
        summary="Re-executes Paohuzi hand logs and serves the verdicts.",
        docs_url=None,
        redoc_url=None,
        openapi_url=f"{PREFIX}/openapi.json",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.add_middleware(Guard, hsts=not settings.dev_mode)
    app.state.db = database
    handlers.install(app)
    openapi.install(app)
    api_docs.install(app, f"{PREFIX}/docs", f"{PREFIX}/openapi.json")
    app.include_router(api_router)
    _mount_pages(app)
    return app


def _mount_pages(app: FastAPI) -> None:
    """The replay pages (``app.web``) when present; otherwise ``/`` points at the API docs."""
    try:
        web = importlib.import_module("app.web")
    except ModuleNotFoundError as exc:
        if exc.name not in ("app.web",):
            raise
        web = None
    if web is not None and hasattr(web, "install"):
        web.install(app)
        return

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse(f"{PREFIX}/docs")
