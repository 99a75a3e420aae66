"""The schema is Alembic's: upgrade, downgrade to base, upgrade again; models match it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect, text

from app.database import Database, make_engine, transaction
from app.games.service import Source, parse, prepare, store
from app.migrate import current_revision, downgrade, owned_by_app, upgrade
from app.models import Base
from app.models.decision import KIND_COLUMNS, DecisionCount
from replay.tools.simulate import simulate
from replay.verdict import DecisionKind

from .backends import blank_database
from .logs import engine_verdict

TABLES = {"api_keys", "hand_logs", "log_players", "verdicts", "findings", "decision_counts"}


def _store_verified(engine: Engine, raws: list[bytes]) -> None:
    """The logs stored with their verdicts, as an ingest stores them."""
    with transaction(Database.from_engine(engine).write) as session:
        items = [prepare(parse(raw, 64), verify=True) for raw in raws]
        store(session, items, api_key_id=None, source=Source.IMPORT)


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


def test_decision_counts_keep_the_decisions(kind: str, tmp_path: Path) -> None:
    """0008 counts the decision rows; going back rebuilds a row a decision from the
    verdicts' JSON, as 0007's ingest wrote them; going up again counts the same."""
    raws = [json.dumps(doc).encode() for doc in simulate(4, 5, "standard")]
    want = []
    for raw in raws:
        verdict = engine_verdict(raw)
        players = {p["seat"]: p["id"] for p in json.loads(raw)["players"]}
        want += [
            (verdict.game_id, d.seq, d.seat, players[d.seat], str(d.kind), d.card, d.outcome,
             d.detail, list(d.refs))
            for d in verdict.decisions
        ]
    counted = Counter((g, seat, player, k) for g, _, seat, player, k, *_ in want)
    assert len(want) > len(counted) > 4

    def counts(engine: Engine) -> dict[tuple[str, int, str, str], int]:
        with engine.connect() as conn:
            rows = conn.execute(text(
                f"SELECT l.game_id, c.seat, c.player_id, {', '.join(KIND_COLUMNS.values())} "
                "FROM decision_counts c "
                "JOIN verdicts v ON v.id = c.verdict_id JOIN hand_logs l ON l.id = v.log_id"
            ))
            return {
                (g, seat, player, kind): n
                for g, seat, player, *ns in rows
                for kind, n in zip(KIND_COLUMNS, ns, strict=True)
                if n
            }

    with blank_database(kind, tmp_path) as url:
        engine = make_engine(url)
        try:
            upgrade(url)
            _store_verified(engine, raws)
            assert counts(engine) == dict(counted)

            downgrade(url, "0007_decisions_log_fk")
            engine.dispose()
            with engine.connect() as conn:
                rows = conn.execute(text(
                    "SELECT game_id, seq, seat, player_id, kind, card, outcome, detail, refs "
                    "FROM decisions"
                )).all()
            got = [
                (*row[:8], json.loads(row[8]) if isinstance(row[8], str) else row[8])
                for row in rows
            ]
            assert sorted(got, key=repr) == sorted(want, key=repr)

            upgrade(url)
            engine.dispose()
            assert counts(engine) == dict(counted)
        finally:
            engine.dispose()


def test_every_kind_of_decision_has_its_count_column() -> None:
    """A new ``DecisionKind`` needs a column in ``decision_counts`` (and a migration)."""
    columns = set(DecisionCount.__table__.c.keys())
    assert {str(kind) for kind in DecisionKind} == set(KIND_COLUMNS)
    assert set(KIND_COLUMNS.values()) <= columns
    assert {c for c in columns if c.startswith("n_")} == set(KIND_COLUMNS.values())


def test_postgresql_compresses_logs_and_verdicts_with_lz4(kind: str, tmp_path: Path) -> None:
    """0009: new logs and verdicts are stored lz4-compressed; going back restores the
    server's default for new values."""
    if kind != "postgresql":
        pytest.skip("column compression is PostgreSQL's")

    def compression(engine: Engine) -> dict[str, str]:
        with engine.connect() as conn:
            return {
                f"{table}.{column}": conn.execute(text(
                    "SELECT attcompression FROM pg_attribute "
                    "WHERE attrelid = CAST(:t AS regclass) AND attname = :c"
                ), {"t": table, "c": column}).scalar_one()
                for table, column in (("hand_logs", "raw"), ("verdicts", "verdict_json"))
            }

    doc = next(simulate(1, 8, "standard"))
    doc["meta"] = {"pad": "x" * 3000}  # past the TOAST threshold whatever the hand
    with blank_database(kind, tmp_path) as url:
        engine = make_engine(url)
        try:
            upgrade(url)
            assert compression(engine) == {"hand_logs.raw": "l", "verdicts.verdict_json": "l"}
            _store_verified(engine, [json.dumps(doc).encode()])
            with engine.connect() as conn:
                assert conn.execute(text(
                    "SELECT pg_column_compression(raw) FROM hand_logs"
                )).scalar_one() == "lz4"
            downgrade(url, "0008_decision_counts")
            engine.dispose()
            assert compression(engine) == {"hand_logs.raw": "", "verdicts.verdict_json": ""}
        finally:
            engine.dispose()
