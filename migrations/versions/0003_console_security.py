"""Console security: server-side operator sessions, the sign-in limiter, the signing key.

Revision ID: 0003_security
Revises: 0002_cases
Create Date: 2026-11-30 16:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_security"
down_revision: str | None = "0002_cases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "operator_sessions",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("operator_id", ID, nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["operator_id"],
            ["operators.id"],
            name=op.f("fk_operator_sessions_operator_id_operators"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operator_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_operator_sessions_token_hash")),
    )
    with op.batch_alter_table("operator_sessions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_operator_sessions_operator_id"), ["operator_id"], unique=False
        )
    op.create_table(
        "sign_in_throttle",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_sign_in_throttle")),
    )
    op.create_table(
        "app_secrets",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_app_secrets")),
    )


def downgrade() -> None:
    op.drop_table("app_secrets")
    op.drop_table("sign_in_throttle")
    with op.batch_alter_table("operator_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_operator_sessions_operator_id"))
    op.drop_table("operator_sessions")
