"""The job queue (procrastinate's schema, PostgreSQL only), webhook subscriptions,
deliveries and attempts, and an index on ``verdicts.created_at`` (throughput metric).

procrastinate's schema is the ``schema.sql`` of the pinned procrastinate release
(``pyproject.toml``); a later procrastinate release that changes it comes with a new
revision that applies its migration files.

Revision ID: 0005_queue_webhooks
Revises: 0002_cases
Create Date: 2026-11-30 16:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_queue_webhooks"
down_revision: str | None = "0004_case_workflow"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

_DROP_PROCRASTINATE = """
DO $$
DECLARE f record;
BEGIN
    FOR f IN SELECT p.oid::regprocedure AS sig FROM pg_proc p
             JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = current_schema() AND p.proname LIKE 'procrastinate%'
    LOOP
        EXECUTE 'DROP FUNCTION ' || f.sig || ' CASCADE';
    END LOOP;
END $$;
DROP TABLE IF EXISTS procrastinate_events, procrastinate_periodic_defers,
    procrastinate_jobs, procrastinate_workers CASCADE;
DROP TYPE IF EXISTS procrastinate_job_to_defer_v1, procrastinate_job_event_type,
    procrastinate_job_status CASCADE;
"""


def _postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def _run_script(sql: str) -> None:
    """Several statements at once, with no parameter parsing (psycopg's simple protocol)."""
    driver = op.get_bind().connection.driver_connection
    assert driver is not None
    driver.execute(sql)


def upgrade() -> None:
    if _postgres():
        from procrastinate.schema import SchemaManager

        _run_script(SchemaManager.get_schema())

    with op.batch_alter_table("verdicts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_verdicts_created_at"), ["created_at"], unique=False)

    op.create_table(
        "webhook_subscriptions",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("secret", sa.String(length=200), nullable=False),
        sa.Column("codes", sa.JSON(), nullable=False),
        sa.Column("rulesets", sa.JSON(), nullable=False),
        sa.Column("statuses", sa.JSON(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_subscriptions")),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("subscription_id", ID, nullable=False),
        sa.Column("verdict_id", ID, nullable=False),
        sa.Column("game_id", sa.String(length=128), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("round_attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["webhook_subscriptions.id"],
            name=op.f("fk_webhook_deliveries_subscription_id_webhook_subscriptions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["verdict_id"],
            ["verdicts.id"],
            name=op.f("fk_webhook_deliveries_verdict_id_verdicts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
    )
    with op.batch_alter_table("webhook_deliveries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_webhook_deliveries_subscription_id_id"),
            ["subscription_id", "id"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_webhook_deliveries_state_next_attempt_at"),
            ["state", "next_attempt_at"],
            unique=False,
        )
    op.create_table(
        "webhook_attempts",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("delivery_id", ID, nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status_code", sa.SmallInteger(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["delivery_id"],
            ["webhook_deliveries.id"],
            name=op.f("fk_webhook_attempts_delivery_id_webhook_deliveries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_attempts")),
    )
    with op.batch_alter_table("webhook_attempts", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_webhook_attempts_delivery_id"), ["delivery_id"], unique=False
        )


def downgrade() -> None:
    op.drop_table("webhook_attempts")
    op.drop_table("webhook_deliveries")
    op.drop_table("webhook_subscriptions")
    with op.batch_alter_table("verdicts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_verdicts_created_at"))
    if _postgres():
        _run_script(_DROP_PROCRASTINATE)
