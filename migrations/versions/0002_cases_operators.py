"""Operators, cheating reports and cases, evidence pins, the append-only case trail.

Revision ID: 0002_cases
Revises: 0001
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_cases"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

_PG_FUNCTION = """
CREATE FUNCTION case_events_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'case_events is append-only';
END
$$ LANGUAGE plpgsql
"""


def _id() -> sa.Column[int]:
    return sa.Column("id", ID, autoincrement=True, nullable=False)


def upgrade() -> None:
    op.create_table(
        "operators",
        _id(),
        sa.Column("username", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_sign_in_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operators")),
        sa.UniqueConstraint("username", name=op.f("uq_operators_username")),
    )
    op.create_table(
        "cases",
        _id(),
        sa.Column("log_id", ID, nullable=False),
        sa.Column("game_id", sa.String(length=128), nullable=False),
        sa.Column("ruleset", sa.String(length=32), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("resolution", sa.String(length=16), nullable=True),
        sa.Column("assignee_id", ID, nullable=True),
        sa.Column("report_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["assignee_id"], ["operators.id"], name=op.f("fk_cases_assignee_id_operators")
        ),
        sa.ForeignKeyConstraint(
            ["log_id"], ["hand_logs.id"], name=op.f("fk_cases_log_id_hand_logs")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cases")),
        sa.UniqueConstraint("log_id", name=op.f("uq_cases_log_id")),
    )
    with op.batch_alter_table("cases", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_cases_assignee_id"), ["assignee_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_cases_state_updated_at"), ["state", "updated_at"], unique=False
        )

    op.create_table(
        "case_reports",
        _id(),
        sa.Column("case_id", ID, nullable=False),
        sa.Column("reporter_player_id", sa.String(length=128), nullable=False),
        sa.Column("accused_seat", sa.SmallInteger(), nullable=False),
        sa.Column("accused_player_id", sa.String(length=128), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("api_key_id", ID, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["api_key_id"],
            ["api_keys.id"],
            name=op.f("fk_case_reports_api_key_id_api_keys"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["case_id"], ["cases.id"], name=op.f("fk_case_reports_case_id_cases")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_case_reports")),
    )
    with op.batch_alter_table("case_reports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_case_reports_case_id"), ["case_id"], unique=False)

    op.create_table(
        "case_evidence",
        _id(),
        sa.Column("case_id", ID, nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["case_id"], ["cases.id"], name=op.f("fk_case_evidence_case_id_cases")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_case_evidence")),
    )
    with op.batch_alter_table("case_evidence", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_case_evidence_case_id"), ["case_id"], unique=False)

    op.create_table(
        "case_events",
        _id(),
        sa.Column("case_id", ID, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=200), nullable=False),
        sa.Column("operator_id", ID, nullable=True),
        sa.Column("api_key_id", ID, nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("from_state", sa.String(length=16), nullable=True),
        sa.Column("to_state", sa.String(length=16), nullable=True),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["api_key_id"], ["api_keys.id"], name=op.f("fk_case_events_api_key_id_api_keys")
        ),
        sa.ForeignKeyConstraint(
            ["case_id"], ["cases.id"], name=op.f("fk_case_events_case_id_cases")
        ),
        sa.ForeignKeyConstraint(
            ["operator_id"], ["operators.id"], name=op.f("fk_case_events_operator_id_operators")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_case_events")),
    )
    with op.batch_alter_table("case_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_case_events_case_id_id"), ["case_id", "id"], unique=False
        )

    # The trail is append-only: the database itself refuses to change or remove a line.
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_PG_FUNCTION)
        op.execute(
            "CREATE TRIGGER case_events_append_only BEFORE UPDATE OR DELETE ON case_events "
            "FOR EACH ROW EXECUTE FUNCTION case_events_append_only()"
        )
    else:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER case_events_no_{verb.lower()} BEFORE {verb} ON case_events "
                "BEGIN SELECT RAISE(ABORT, 'case_events is append-only'); END"
            )


def downgrade() -> None:
    op.drop_table("case_events")  # drops its triggers too
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS case_events_append_only()")
    with op.batch_alter_table("case_evidence", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_case_evidence_case_id"))
    op.drop_table("case_evidence")
    with op.batch_alter_table("case_reports", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_case_reports_case_id"))
    op.drop_table("case_reports")
    with op.batch_alter_table("cases", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_cases_state_updated_at"))
        batch_op.drop_index(batch_op.f("ix_cases_assignee_id"))
    op.drop_table("cases")
    op.drop_table("operators")
