"""Reading stored games (the read side of the games domain)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..auth.repository import ApiKeyRepository
from ..errors import NotFound
from .repository import GameRepository
from .schemas import GameOut, PlayerAtSeat, VerdictSummary


def _unknown(game_id: str) -> NotFound:
    return NotFound(f"no game with game_id {game_id!r}")


def stored_log(session: Session, game_id: str) -> tuple[bytes, str]:
    found = GameRepository(session).raw_of(game_id)
    if found is None:
        raise _unknown(game_id)
    return found


def stored_verdict(session: Session, game_id: str, engine: str | None) -> tuple[str, str]:
    repo = GameRepository(session)
    log = repo.by_game_id(game_id)
    if log is None:
        raise _unknown(game_id)
    row = repo.verdict_for(log.id, engine)
    if row is None:
        if engine is not None:
            raise NotFound(f"game {game_id!r} has no verdict of engine {engine!r}")
        raise NotFound(
            f"game {game_id!r} is stored but not verified yet "
            "(queued for a worker, or run a re-audit)",
            extra={"reason": "verdict_pending"},
        )
    return row.verdict_json, row.verdict_sha256


def game_out(session: Session, game_id: str, base_url: str) -> GameOut:
    repo = GameRepository(session)
    log = repo.by_game_id(game_id)
    if log is None:
        raise _unknown(game_id)
    verdict = repo.verdict_for(log.id, None)
    key_name = None
    if log.api_key_id is not None:
        key_name = ApiKeyRepository(session).names_by_id({log.api_key_id}).get(log.api_key_id)
    return GameOut(
        game_id=log.game_id,
        ruleset=log.ruleset,
        match_id=log.match_id,
        hand_no=log.hand_no,
        dealer=log.dealer,
        players=[PlayerAtSeat(seat=p.seat, player_id=p.player_id) for p in log.players],
        started_at=log.started_at,
        played_at=log.played_at,
        ingested_at=log.ingested_at,
        source=log.source,
        api_key=key_name,
        size_bytes=log.size_bytes,
        raw_sha256=log.raw_sha256,
        log_sha256=log.log_sha256,
        verdict=VerdictSummary(
            engine=verdict.engine_version,
            status=verdict.status,
            findings=verdict.finding_count,
            verdict_sha256=verdict.verdict_sha256,
            created_at=verdict.created_at,
        )
        if verdict
        else None,
        engines=repo.engines_of(log.id),
        links={"self": base_url, "log": f"{base_url}/log", "verdict": f"{base_url}/verdict"},
    )
