from __future__ import annotations

from sqlalchemy.orm import Session

from ..errors import NotFound
from .repository import PlayerRepository
from .schemas import PlayerGame, PlayerOut

RECENT = 20


def player_record(session: Session, player_id: str) -> PlayerOut:
    repo = PlayerRepository(session)
    by_ruleset = repo.hands_by_ruleset(player_id)
    if not by_ruleset:
        raise NotFound(f"no hand of player {player_id!r} is stored")
    return PlayerOut(
        player_id=player_id,
        hands=sum(n for n, _, _ in by_ruleset.values()),
        hands_by_ruleset={k: v[0] for k, v in sorted(by_ruleset.items())},
        first_played_at=min(v[1] for v in by_ruleset.values()),
        last_played_at=max(v[2] for v in by_ruleset.values()),
        findings_by_code=dict(sorted(repo.findings_by_code(player_id).items())),
        decisions_by_kind=dict(sorted(repo.decisions_by_kind(player_id).items())),
        recent_games=[
            PlayerGame(
                game_id=r.game_id,
                seat=r.seat,
                ruleset=r.ruleset,
                played_at=r.played_at,
                verdict_status=r.verdict_status,
            )
            for r in repo.recent_games(player_id, RECENT)
        ],
    )
