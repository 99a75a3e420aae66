"""PostgreSQL: the stored logs and verdicts compressed with lz4, not pglz.

A log (``hand_logs.raw``, 2.5-6 KB) and a verdict (``verdicts.verdict_json``, ~3.3 KB)
pass PostgreSQL's TOAST threshold (~2 KB), so each insert compresses them; with the
default pglz that was half of each insert's time. lz4 halves it: over 2,000 hands
stored and verified, ``INSERT INTO hand_logs`` 0.087 -> 0.042 ms a hand and ``INSERT
INTO verdicts`` 0.072 -> 0.041 ms (pg_stat_statements, docs/performance.md, "Tenth
pass"). Values already stored keep their compression (PostgreSQL reads both); only new
ones are written with lz4. A server built without lz4 (a build option of PostgreSQL 14
and later), and SQLite, are left as they are.

Revision ID: 0009_lz4_toast
Revises: 0008_decision_counts
Create Date: 2026-12-01 16:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_lz4_toast"
down_revision: str | None = "0008_decision_counts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (table, column) of the large values
COLUMNS = (("hand_logs", "raw"), ("verdicts", "verdict_json"))


def _lz4() -> bool:
    """Whether the server can compress with lz4 (PostgreSQL 14 and newer, built with it)."""
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return False
    found = bind.execute(sa.text(
        "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
        "AND 'lz4' = ANY(enumvals)"
    )).first()
    return found is not None


def upgrade() -> None:
    if _lz4():
        for table, column in COLUMNS:
            op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION lz4")


def downgrade() -> None:
    if _lz4():
        for table, column in COLUMNS:
            op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION default")
