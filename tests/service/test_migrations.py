"""The schema is Alembic's: upgrade, downgrade to base, upgrade again; models match it."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from app.database import make_engine
from app.migrate import current_revision, downgrade, owned_by_app, upgrade
from app.models import Base

from .backends import blank_database

TABLES = {"api_keys", "hand_logs", "log_players", "verdicts", "findings", "decisions"}


def test_upgrade_downgrade_upgrade(kind: str, tmp_path: Path) -> None:
    with blank_database(kind, tmp_path) as url:
        engine = make_engine(url)
        try:
            upgrade(url)
            assert TABLES <= set(inspect(engine).get_table_names())
            assert current_revision(engine) is not None
            with engine.connect() as conn:
                context = MigrationContext.configure(conn, opts={"include_name": owned_by_app})
                diff = compare_metadata(context, Base.metadata)
            assert diff == [], f"models and migrations differ: {diff}"

            downgrade(url, "base")
            engine.dispose()
            assert not TABLES & set(inspect(engine).get_table_names())
            assert current_revision(engine) is None

            upgrade(url)
            engine.dispose()
            assert TABLES <= set(inspect(engine).get_table_names())
        finally:
            engine.dispose()


def test_finding_query_uses_an_index(backend: object) -> None:
    """ "All chou_hu of player X this week" is one range over one index."""
    from sqlalchemy import select, text

    from app.models import FindingRow

    engine = backend.engine  # type: ignore[attr-defined]
    stmt = (
        select(FindingRow.id)
        .where(FindingRow.player_id == "p", FindingRow.code == "chou_hu")
        .where(FindingRow.played_at >= text("'2026-11-23'"))
    )
    sql = str(stmt.compile(engine, compile_kwargs={"literal_binds": True}))
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            plan = " ".join(str(r[-1]) for r in conn.execute(text(f"EXPLAIN QUERY PLAN {sql}")))
            assert "ix_findings_player_id_code_played_at_id" in plan, plan
        else:
            conn.execute(text("SET enable_seqscan = off"))
            plan = " ".join(r[0] for r in conn.execute(text(f"EXPLAIN {sql}")))
            assert "ix_findings_player_id_code_played_at_id" in plan, plan
