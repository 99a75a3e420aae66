"""Rows for one log and its verdict, as dicts for bulk inserts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..models.decision import KIND_COLUMNS
from .audit import Parsed, VerdictData


def log_row(
    parsed: Parsed,
    *,
    started_at: datetime | None,
    played_at: datetime,
    ingested_at: datetime,
    api_key_id: int | None,
    source: str,
) -> dict[str, Any]:
    log = parsed.log
    return {
        "game_id": log.game_id,
        "ruleset": log.ruleset,
        "match_id": log.match.id if log.match else None,
        "hand_no": log.match.hand if log.match else None,
        "dealer": log.dealer,
        "started_at": started_at,
        "played_at": played_at,
        "raw": parsed.raw,
        "raw_sha256": parsed.raw_sha256,
        "log_sha256": parsed.log_sha256,
        "size_bytes": len(parsed.raw),
        "ingested_at": ingested_at,
        "api_key_id": api_key_id,
        "source": source,
    }


def player_rows(log_id: int, players: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"log_id": log_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(players)]


def verdict_row(log_id: int, data: VerdictData, created_at: datetime) -> dict[str, Any]:
    return {
        "log_id": log_id,
        "engine_version": data.engine,
        "status": data.status,
        "is_current": True,
        "verdict_json": data.json_text,
        "verdict_sha256": data.sha256,
        "content_sha256": data.content_sha256,
        "finding_count": len(data.verdict.findings),
        "created_at": created_at,
    }


def finding_rows(
    log_id: int, verdict_id: int, parsed: Parsed, data: VerdictData, played_at: datetime
) -> list[dict[str, Any]]:
    players = parsed.log.players
    return [
        {
            "verdict_id": verdict_id,
            "log_id": log_id,
            "game_id": parsed.log.game_id,
            "ruleset": parsed.log.ruleset,
            "played_at": played_at,
            "seq": f.seq,
            "seat": f.seat,
            "player_id": players[f.seat] if f.seat is not None and 0 <= f.seat < 3 else None,
            "code": str(f.code),
            "severity": str(f.severity),
            "message": f.message,
            "refs": list(f.refs),
        }
        for f in data.verdict.findings
    ]


def decision_count_rows(
    verdict_id: int, parsed: Parsed, data: VerdictData, played_at: datetime
) -> list[dict[str, Any]]:
    """A row for each seat with decisions in the verdict: how many of each kind."""
    counts: dict[int, dict[str, Any]] = {}
    players = parsed.log.players
    for d in data.verdict.decisions:
        if 0 <= d.seat < 3:
            row = counts.get(d.seat)
            if row is None:
                row = counts[d.seat] = {
                    "verdict_id": verdict_id,
                    "seat": d.seat,
                    "player_id": players[d.seat],
                    "played_at": played_at,
                    **dict.fromkeys(KIND_COLUMNS.values(), 0),
                }
            row[KIND_COLUMNS[d.kind]] += 1
    return [counts[seat] for seat in sorted(counts)]
