"""Fair-play analytics: per-hand features, the last scan's pairs and players, the scans.

Revision ID: 0006_fairplay
Revises: 0002_cases
Create Date: 2026-11-30 16:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_fairplay"
down_revision: str | None = "0005_queue_webhooks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "fairplay_features",
        sa.Column("log_id", ID, nullable=False),
        sa.Column("version", sa.SmallInteger(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["log_id"], ["hand_logs.id"],
                                name=op.f("fk_fairplay_features_log_id_hand_logs"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("log_id", name=op.f("pk_fairplay_features")),
    )
    op.create_table(
        "fairplay_pairs",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("player_a", sa.String(length=128), nullable=False),
        sa.Column("player_b", sa.String(length=128), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("flagged", sa.Boolean(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fairplay_pairs")),
    )
    with op.batch_alter_table("fairplay_pairs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_fairplay_pairs_player_a_player_b"),
                              ["player_a", "player_b"], unique=True)
        batch_op.create_index(batch_op.f("ix_fairplay_pairs_player_b"), ["player_b"],
                              unique=False)
        batch_op.create_index(batch_op.f("ix_fairplay_pairs_rank"), ["rank"], unique=False)
    op.create_table(
        "fairplay_players",
        sa.Column("player_id", sa.String(length=128), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("flagged", sa.Boolean(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_fairplay_players")),
    )
    with op.batch_alter_table("fairplay_players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_fairplay_players_rank"), ["rank"], unique=False)
    op.create_table(
        "fairplay_scans",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("new_hands", sa.Integer(), nullable=False),
        sa.Column("skipped", sa.Integer(), nullable=False),
        sa.Column("seconds_features", sa.Float(), nullable=False),
        sa.Column("seconds_detectors", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fairplay_scans")),
    )


def downgrade() -> None:
    op.drop_table("fairplay_scans")
    with op.batch_alter_table("fairplay_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_fairplay_players_rank"))
    op.drop_table("fairplay_players")
    with op.batch_alter_table("fairplay_pairs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_fairplay_pairs_rank"))
        batch_op.drop_index(batch_op.f("ix_fairplay_pairs_player_b"))
        batch_op.drop_index(batch_op.f("ix_fairplay_pairs_player_a_player_b"))
    op.drop_table("fairplay_pairs")
    op.drop_table("fairplay_features")
