"""Decision rows: no foreign key on ``log_id``.

Every decision row belongs to a verdict (``verdict_id``, still a foreign key, cascading),
and its verdict to the log (``verdicts.log_id``, cascading): the second key on
``log_id`` added nothing a deletion needs, and cost a check for each of the ~23 rows a
hand writes. On PostgreSQL that is a trigger a row: dropping it took the workers'
PostgreSQL CPU from 0.39-0.40 to 0.31-0.33 ms a hand (docs/performance.md, "Eighth
pass"). The column and its index stay (re-audit deletes a log's decisions by it).

Revision ID: 0007_decisions_log_fk
Revises: 0006_fairplay
Create Date: 2026-12-01 12:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0007_decisions_log_fk"
down_revision: str | None = "0006_fairplay"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_constraint("fk_decisions_log_id_hand_logs", type_="foreignkey")


def downgrade() -> None:
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.create_foreign_key(
            "fk_decisions_log_id_hand_logs", "hand_logs", ["log_id"], ["id"], ondelete="CASCADE"
        )
