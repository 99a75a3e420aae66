"""The case workflow: player cases (with their append-only trail), hand cases grouped
into them, reopen counts, and one count per reporter (``report_count`` = distinct
reporters, ``reports_filed`` = every report).

Revision ID: 0004_case_workflow
Revises: 0003_security
Create Date: 2026-11-30 16:00:00

The new columns of ``cases`` are added with ``ALTER TABLE ... ADD COLUMN`` (no table
rebuild: on SQLite a rebuild of ``cases`` would have to drop a table that the
append-only ``case_events`` rows reference).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_case_workflow"
down_revision: str | None = "0003_security"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

_PG_FUNCTION = """
CREATE FUNCTION player_case_events_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'player_case_events is append-only';
END
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    op.create_table(
        "player_cases",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=128), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("resolution", sa.String(length=16), nullable=True),
        sa.Column("assignee_id", ID, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["assignee_id"], ["operators.id"], name=op.f("fk_player_cases_assignee_id_operators")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_cases")),
    )
    op.create_index(op.f("ix_player_cases_assignee_id"), "player_cases", ["assignee_id"])
    op.create_index(op.f("ix_player_cases_player_id"), "player_cases", ["player_id"])
    op.create_index(
        op.f("ix_player_cases_state_updated_at"), "player_cases", ["state", "updated_at"]
    )
    op.create_table(
        "player_case_events",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("player_case_id", ID, nullable=False),
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
            ["api_key_id"],
            ["api_keys.id"],
            name=op.f("fk_player_case_events_api_key_id_api_keys"),
        ),
        sa.ForeignKeyConstraint(
            ["operator_id"],
            ["operators.id"],
            name=op.f("fk_player_case_events_operator_id_operators"),
        ),
        sa.ForeignKeyConstraint(
            ["player_case_id"],
            ["player_cases.id"],
            name=op.f("fk_player_case_events_player_case_id_player_cases"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_case_events")),
    )
    op.create_index(
        op.f("ix_player_case_events_player_case_id_id"),
        "player_case_events",
        ["player_case_id", "id"],
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_PG_FUNCTION)
        op.execute(
            "CREATE TRIGGER player_case_events_append_only BEFORE UPDATE OR DELETE ON "
            "player_case_events FOR EACH ROW EXECUTE FUNCTION player_case_events_append_only()"
        )
    else:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER player_case_events_no_{verb.lower()} BEFORE {verb} ON "
                "player_case_events BEGIN SELECT RAISE(ABORT, 'player_case_events is "
                "append-only'); END"
            )

    # plain ADD COLUMN on both databases (see the module docstring)
    op.add_column(
        "cases", sa.Column("reports_filed", sa.Integer(), server_default="0", nullable=False)
    )
    op.add_column(
        "cases", sa.Column("reopen_count", sa.Integer(), server_default="0", nullable=False)
    )
    fk = op.f("fk_cases_player_case_id_player_cases")
    if op.get_bind().dialect.name == "postgresql":
        op.add_column("cases", sa.Column("player_case_id", ID, nullable=True))
        op.create_foreign_key(fk, "cases", "player_cases", ["player_case_id"], ["id"])
    else:
        columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("cases")}
        if "player_case_id" not in columns:  # kept through a downgrade (see downgrade)
            op.execute(
                f"ALTER TABLE cases ADD COLUMN player_case_id INTEGER CONSTRAINT {fk} "
                "REFERENCES player_cases (id)"
            )
    op.create_index(op.f("ix_cases_player_case_id"), "cases", ["player_case_id"])
    # every report filed so far; report_count becomes the number of distinct reporters
    op.execute("UPDATE cases SET reports_filed = report_count")
    op.execute(
        "UPDATE cases SET report_count = (SELECT COUNT(DISTINCT r.reporter_player_id) "
        "FROM case_reports r WHERE r.case_id = cases.id)"
    )


def downgrade() -> None:
    op.execute("UPDATE cases SET report_count = reports_filed")
    op.drop_index(op.f("ix_cases_player_case_id"), table_name="cases")
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint(op.f("fk_cases_player_case_id_player_cases"), "cases")
        op.drop_column("cases", "player_case_id")
    # SQLite cannot drop a column that has a REFERENCES clause: it stays there, unused and
    # NULL (player_cases is empty by then), and the next upgrade keeps it.
    op.drop_column("cases", "reopen_count")
    op.drop_column("cases", "reports_filed")
    op.drop_table("player_case_events")  # drops its triggers too
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS player_case_events_append_only()")
    op.drop_index(op.f("ix_player_cases_state_updated_at"), table_name="player_cases")
    op.drop_index(op.f("ix_player_cases_player_id"), table_name="player_cases")
    op.drop_index(op.f("ix_player_cases_assignee_id"), table_name="player_cases")
    op.drop_table("player_cases")
