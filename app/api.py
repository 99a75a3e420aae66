"""The ``/api/v1`` router: every domain's endpoints."""

from __future__ import annotations

from fastapi import APIRouter

from .admin.endpoints import router as admin_router
from .cases.endpoints import router as cases_router
from .fairplay.endpoints import router as fairplay_router
from .findings.endpoints import router as findings_router
from .games.endpoints import router as games_router
from .matches.endpoints import router as matches_router
from .players.endpoints import router as players_router
from .system.endpoints import router as system_router
from .webhooks.endpoints import router as webhooks_router

PREFIX = "/api/v1"

router = APIRouter(prefix=PREFIX)
router.include_router(games_router)
router.include_router(findings_router)
router.include_router(players_router)
router.include_router(matches_router)
router.include_router(admin_router)
router.include_router(cases_router)
router.include_router(webhooks_router)
router.include_router(fairplay_router)
router.include_router(system_router)
