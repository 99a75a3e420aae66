"""Which findings concern a player.

A finding with a seat concerns that seat's player (``findings.player_id``). A finding
with no seat (``score_mismatch``, ``commitment_mismatch``, ``deal_invalid``, a log that
stops early) is about the whole hand, so it concerns every player of the hand: player
pages, the ``player`` filter of ``/findings`` and the player record count it for each of
the three. Two index ranges: ``findings(player_id, code, played_at, id)`` for the first
kind, ``log_players(player_id)`` then ``findings(log_id)`` for the second.
"""

from __future__ import annotations

from sqlalchemy import and_, or_, select
from sqlalchemy.sql.elements import ColumnElement

from ..models import FindingRow, LogPlayer


def concerns_player(player_id: str) -> ColumnElement[bool]:
    hands = select(LogPlayer.log_id).where(LogPlayer.player_id == player_id)
    return or_(
        FindingRow.player_id == player_id,
        and_(FindingRow.seat.is_(None), FindingRow.log_id.in_(hands)),
    )
