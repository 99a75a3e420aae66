"""The cases an operator sees beside a replay or on a player page."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..cases.player_cases import history
from ..models.case import STATE_LABELS, Case, CaseState
from ..models.player_case import PlayerCase


@dataclass(frozen=True, slots=True)
class Related:
    id: str
    url: str
    state: str
    state_label: str
    summary: str


def _hand(case: Case) -> Related:
    extra = f", reopened ×{case.reopen_count}" if case.reopen_count else ""
    decided = f" ({case.resolution})" if case.resolution else ""
    return Related(
        id=str(case.id),
        url=f"/ops/cases/{case.id}",
        state=case.state,
        state_label=STATE_LABELS[CaseState(case.state)] + decided,
        summary=f"hand {case.game_id}: {case.report_count} reporter"
        f"{'s' if case.report_count != 1 else ''}{extra}",
    )


def _player(pc: PlayerCase) -> Related:
    decided = f" ({pc.resolution})" if pc.resolution else ""
    return Related(
        id=f"P{pc.id}",
        url=f"/ops/player-cases/{pc.id}",
        state=pc.state,
        state_label=STATE_LABELS[CaseState(pc.state)] + decided,
        summary=f"player case about {pc.player_id}",
    )


def cases_of_hand(session: Session, game_id: str) -> list[Related]:
    case = session.scalars(select(Case).where(Case.game_id == game_id)).first()
    if case is None:
        return []
    out = [_hand(case)]
    if case.player_case_id is not None:
        pc = session.get(PlayerCase, case.player_case_id)
        if pc is not None:
            out.append(_player(pc))
    return out


def cases_of_player(session: Session, player_id: str) -> list[Related]:
    h = history(session, player_id)
    return [_player(p) for p in h.player_cases] + [_hand(c) for c in h.hand_cases]
