"""The first schema: hand logs, players per seat, verdicts, findings, decisions, API keys.

Case and report tables come in later revisions.

Revision ID: 0001
Revises:
Create Date: 2026-11-30 09:43:34.503704
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("scopes", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
    )
    op.create_table(
        "hand_logs",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("game_id", sa.String(length=128), nullable=False),
        sa.Column("ruleset", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.String(length=128), nullable=True),
        sa.Column("hand_no", sa.Integer(), nullable=True),
        sa.Column("dealer", sa.SmallInteger(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("raw_sha256", sa.String(length=64), nullable=False),
        sa.Column("log_sha256", sa.String(length=64), nullable=False),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("ingested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "api_key_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["api_key_id"],
            ["api_keys.id"],
            name=op.f("fk_hand_logs_api_key_id_api_keys"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_logs")),
        sa.UniqueConstraint("game_id", name=op.f("uq_hand_logs_game_id")),
    )
    with op.batch_alter_table("hand_logs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_logs_api_key_id"), ["api_key_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_hand_logs_ingested_at"), ["ingested_at"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_hand_logs_match_id_hand_no"), ["match_id", "hand_no"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_hand_logs_played_at"), ["played_at"], unique=False)

    op.create_table(
        "log_players",
        sa.Column("log_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("player_id", sa.String(length=128), nullable=False),
        sa.ForeignKeyConstraint(
            ["log_id"],
            ["hand_logs.id"],
            name=op.f("fk_log_players_log_id_hand_logs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("log_id", "seat", name=op.f("pk_log_players")),
    )
    with op.batch_alter_table("log_players", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_log_players_player_id_log_id"), ["player_id", "log_id"], unique=False
        )

    op.create_table(
        "verdicts",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("log_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("engine_version", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("is_current", sa.Boolean(), nullable=False),
        sa.Column("verdict_json", sa.Text(), nullable=False),
        sa.Column("verdict_sha256", sa.String(length=64), nullable=False),
        sa.Column("content_sha256", sa.String(length=64), nullable=False),
        sa.Column("finding_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["log_id"],
            ["hand_logs.id"],
            name=op.f("fk_verdicts_log_id_hand_logs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_verdicts")),
        sa.UniqueConstraint(
            "log_id", "engine_version", name=op.f("uq_verdicts_log_id_engine_version")
        ),
    )
    with op.batch_alter_table("verdicts", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_verdicts_engine_version_is_current"),
            ["engine_version", "is_current"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_verdicts_log_id_is_current"), ["log_id", "is_current"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_verdicts_status"), ["status"], unique=False)

    op.create_table(
        "decisions",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column(
            "verdict_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("log_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
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
            ["log_id"],
            ["hand_logs.id"],
            name=op.f("fk_decisions_log_id_hand_logs"),
            ondelete="CASCADE",
        ),
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

    op.create_table(
        "findings",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column(
            "verdict_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("log_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.String(length=128), nullable=False),
        sa.Column("ruleset", sa.String(length=32), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("seat", sa.SmallInteger(), nullable=True),
        sa.Column("player_id", sa.String(length=128), nullable=True),
        sa.Column("code", sa.String(length=40), nullable=False),
        sa.Column("severity", sa.String(length=16), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("refs", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["log_id"],
            ["hand_logs.id"],
            name=op.f("fk_findings_log_id_hand_logs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["verdict_id"],
            ["verdicts.id"],
            name=op.f("fk_findings_verdict_id_verdicts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_findings")),
    )
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_findings_code_played_at_id"), ["code", "played_at", "id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_findings_log_id"), ["log_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_findings_played_at_id"), ["played_at", "id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_findings_player_id_code_played_at_id"),
            ["player_id", "code", "played_at", "id"],
            unique=False,
        )
        batch_op.create_index(batch_op.f("ix_findings_verdict_id"), ["verdict_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_findings_verdict_id"))
        batch_op.drop_index(batch_op.f("ix_findings_player_id_code_played_at_id"))
        batch_op.drop_index(batch_op.f("ix_findings_played_at_id"))
        batch_op.drop_index(batch_op.f("ix_findings_log_id"))
        batch_op.drop_index(batch_op.f("ix_findings_code_played_at_id"))

    op.drop_table("findings")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_decisions_verdict_id"))
        batch_op.drop_index(batch_op.f("ix_decisions_player_id_kind_played_at"))
        batch_op.drop_index(batch_op.f("ix_decisions_log_id"))

    op.drop_table("decisions")
    with op.batch_alter_table("verdicts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_verdicts_status"))
        batch_op.drop_index(batch_op.f("ix_verdicts_log_id_is_current"))
        batch_op.drop_index(batch_op.f("ix_verdicts_engine_version_is_current"))

    op.drop_table("verdicts")
    with op.batch_alter_table("log_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_log_players_player_id_log_id"))

    op.drop_table("log_players")
    with op.batch_alter_table("hand_logs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_logs_played_at"))
        batch_op.drop_index(batch_op.f("ix_hand_logs_match_id_hand_no"))
        batch_op.drop_index(batch_op.f("ix_hand_logs_ingested_at"))
        batch_op.drop_index(batch_op.f("ix_hand_logs_api_key_id"))

    op.drop_table("hand_logs")
    op.drop_table("api_keys")
