"""Decisions counted, not copied: ``decision_counts`` (a row a verdict and seat, a count
a kind of decision) replaces ``decisions`` (a row a decision).

Each verified hand wrote ~22 decision rows, each with four indexes and a foreign key,
and the rows were only ever counted by player and kind (a player's record); the
decisions themselves, with their seq, card, detail and refs, are in the verdict's JSON.
They were most of the workers' PostgreSQL time: a verification job that skipped them
spent 0.36-0.37 ms of PostgreSQL a hand instead of 0.87-0.91 (docs/performance.md,
"Tenth pass"). A hand now writes up to 3 count rows, with two indexes.

Upgrade counts the existing rows; downgrade rebuilds a row a decision from the JSON of
each verdict that has counts (the current ones).

Revision ID: 0008_decision_counts
Revises: 0007_decisions_log_fk
Create Date: 2026-12-01 16:10:00
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_decision_counts"
down_revision: str | None = "0007_decisions_log_fk"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
#: verdicts rebuilt a statement on downgrade
BATCH = 500
#: the kinds of decision (``replay.verdict.DecisionKind`` when this was written), each
#: counted in its column ``n_<kind>``
KINDS = ("guo_zhang", "chou_pai", "chou_wei", "chou_hu", "mian_zhang", "check")


def upgrade() -> None:
    op.create_table(
        "decision_counts",
        sa.Column("verdict_id", ID, nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("player_id", sa.String(length=128), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        *(sa.Column(f"n_{kind}", sa.Integer(), nullable=False) for kind in KINDS),
        sa.ForeignKeyConstraint(
            ["verdict_id"],
            ["verdicts.id"],
            name=op.f("fk_decision_counts_verdict_id_verdicts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("verdict_id", "seat", name=op.f("pk_decision_counts")),
    )
    with op.batch_alter_table("decision_counts", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_decision_counts_player_id_played_at"),
            ["player_id", "played_at"],
            unique=False,
        )
    columns = ", ".join(f"n_{kind}" for kind in KINDS)
    sums = ", ".join(f"SUM(CASE WHEN kind = '{kind}' THEN 1 ELSE 0 END)" for kind in KINDS)
    op.execute(
        f"INSERT INTO decision_counts (verdict_id, seat, player_id, played_at, {columns}) "
        f"SELECT verdict_id, seat, MIN(player_id), MIN(played_at), {sums} "
        "FROM decisions GROUP BY verdict_id, seat"
    )
    op.drop_table("decisions")


def downgrade() -> None:
    op.create_table(
        "decisions",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("verdict_id", ID, nullable=False),
        sa.Column("log_id", ID, nullable=False),
        sa.Column("game_id", sa.String(length=128), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("player_id", sa.String(length=128), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("card", sa.String(length=4), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("refs", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["verdict_id"],
            ["verdicts.id"],
            name=op.f("fk_decisions_verdict_id_verdicts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_decisions")),
    )
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_decisions_log_id"), ["log_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_decisions_player_id_kind_played_at"),
            ["player_id", "kind", "played_at"],
            unique=False,
        )
        batch_op.create_index(batch_op.f("ix_decisions_verdict_id"), ["verdict_id"], unique=False)
    _rebuild_decisions()
    op.drop_table("decision_counts")


def _rebuild_decisions() -> None:
    """A row a decision of each verdict that has counts, from its JSON, in verdict order."""
    bind = op.get_bind()
    decisions = sa.table(
        "decisions",
        *(sa.column(name) for name in (
            "verdict_id", "log_id", "game_id", "played_at", "seq", "seat", "player_id",
            "kind", "card", "outcome", "detail",
        )),
        sa.column("refs", sa.JSON()),
    )
    verdicts = bind.execute(
        sa.text(
            "SELECT v.id, v.log_id, v.verdict_json, l.game_id, l.played_at FROM verdicts v "
            "JOIN hand_logs l ON l.id = v.log_id "
            "WHERE EXISTS (SELECT 1 FROM decision_counts c WHERE c.verdict_id = v.id) "
            "ORDER BY v.id"
        )
    ).all()
    for start in range(0, len(verdicts), BATCH):
        chunk = verdicts[start : start + BATCH]
        players: dict[tuple[int, int], str] = {
            (r.log_id, r.seat): r.player_id
            for r in bind.execute(
                sa.text("SELECT log_id, seat, player_id FROM log_players "
                        "WHERE log_id IN :ids").bindparams(sa.bindparam("ids", expanding=True)),
                {"ids": [v.log_id for v in chunk]},
            )
        }
        rows = [
            {
                "verdict_id": v.id,
                "log_id": v.log_id,
                "game_id": v.game_id,
                "played_at": v.played_at,
                "seq": d["seq"],
                "seat": d["seat"],
                "player_id": players[(v.log_id, d["seat"])],
                "kind": d["kind"],
                "card": d["card"],
                "outcome": d.get("outcome"),
                "detail": d["detail"],
                "refs": d["refs"],
            }
            for v in chunk
            for d in json.loads(v.verdict_json)["decisions"]
            if 0 <= d["seat"] < 3
        ]
        if rows:
            bind.execute(sa.insert(decisions), rows)
