"""The ingest path's shortcuts give the same bytes as the long way round."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.database import Database, transaction
from app.games import audit, copy
from app.games.audit import content_sha256, content_sha256_of
from app.games.service import Source, parse, prepare, store
from app.models import (
    DecisionCount,
    FairplayFeatures,
    FindingRow,
    HandLog,
    LogPlayer,
    VerdictRow,
)
from app.models.decision import KIND_COLUMNS
from replay.tools.simulate import simulate

from .logs import engine_verdict, log_bytes

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _raws() -> list[bytes]:
    doctors = ("", "out_of_turn", "commitment", "score")
    made = [log_bytes(f"path-{i}", index=i, doctor=doctors[i % 4]) for i in range(120)]
    return made + [p.read_bytes() for p in sorted(EXAMPLES.glob("*.json"))]


def test_content_hash_from_the_canonical_bytes() -> None:
    """The splice equals the definition (the verdict less ``engine``, re-serialised)."""
    checked = 0
    for raw in _raws():
        try:
            parsed = audit.parse(raw, 64)
        except ValueError:
            continue  # an example of a malformed log
        verdict = engine_verdict(parsed.raw)
        canonical = verdict.to_bytes()
        assert content_sha256_of(canonical, verdict.engine) == content_sha256(verdict.to_json())
        checked += 1
    assert checked > 120
    assert content_sha256_of(b'{"decisions":[],"findings":[]}', "x") is None


def test_the_ingest_answer_holds_the_stored_verdict_bytes(
    client: TestClient, headers: dict[str, str]
) -> None:
    raw = log_bytes("path-answer", doctor="out_of_turn")
    answer = client.post("/api/v1/games", content=raw, headers=headers)
    assert answer.status_code == 201 and answer.headers["content-type"] == "application/json"
    doc = json.loads(answer.content)
    assert list(doc) == ["game_id", "outcome", "log_sha256", "verification", "verdict"]
    assert doc["verification"] == "done"
    stored = client.get("/api/v1/games/path-answer/verdict", headers=headers).content
    assert (
        json.dumps(
            doc["verdict"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode()
        == stored
    )
    again = client.post("/api/v1/games", content=raw, headers=headers)
    assert again.status_code == 200 and json.loads(again.content)["verdict"] == doc["verdict"]


def test_many_rows_go_in_whole(db: Database) -> None:
    """A batch's findings and decision counts (COPY on PostgreSQL past 50 rows) read back
    as the engine wrote them, JSON refs included: a count row for each seat and kind of
    decision, with its player and how many."""
    raws = [log_bytes(f"copy-{i}", index=i, doctor="out_of_turn") for i in range(70)]
    # simulated hands make ~20 decisions each, several of a kind by one seat
    raws += [json.dumps(doc).encode() for doc in simulate(5, 4, "standard")]
    items = [prepare(parse(raw, 64), verify=True) for raw in raws]
    with transaction(db.write) as session:
        store(session, items, api_key_id=None, source=Source.IMPORT)
    want_findings = []
    want_counts: Counter[tuple[str, int, str, str]] = Counter()
    for raw in raws:
        verdict = engine_verdict(raw)
        players = {p["seat"]: p["id"] for p in json.loads(raw)["players"]}
        want_findings += [
            (verdict.game_id, f.seq, f.seat, str(f.code), f.message, list(f.refs))
            for f in verdict.findings
        ]
        want_counts.update(
            (verdict.game_id, d.seat, players[d.seat], str(d.kind)) for d in verdict.decisions
        )
    assert len({key[:2] for key in want_counts}) >= 50  # rows: past the COPY threshold
    assert sum(want_counts.values()) > len(want_counts)  # rows count several decisions
    with db.read() as session:
        findings = [
            (r.game_id, r.seq, r.seat, r.code, r.message, r.refs)
            for r in session.scalars(select(FindingRow).order_by(FindingRow.id))
        ]
        counts = {
            (game_id, row.seat, row.player_id, kind): getattr(row, column)
            for game_id, row in session.execute(
                select(HandLog.game_id, DecisionCount)
                .join_from(DecisionCount, VerdictRow, VerdictRow.id == DecisionCount.verdict_id)
                .join(HandLog, HandLog.id == VerdictRow.log_id)
            )
            for kind, column in KIND_COLUMNS.items()
            if getattr(row, column)
        }
    assert findings == want_findings
    assert counts == dict(want_counts)


def test_inserts_returning_ids_split_in_statements_map_each_row(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Logs and verdicts inserted several statements a batch (PostgreSQL) or one each
    (SQLite), some logs already stored: every id returned is its own row's, so players,
    verdicts, findings and features all land on the right log."""
    monkeypatch.setattr(copy, "ROWS_A_STATEMENT", 7)
    doctors = ("", "out_of_turn", "score")
    raws = [log_bytes(f"ids-{i}", index=i, doctor=doctors[i % 3]) for i in range(30)]
    items = [prepare(parse(raw, 64), verify=True) for raw in raws]
    with transaction(db.write) as session:
        store(session, items[5:12], api_key_id=None, source=Source.IMPORT)
    with transaction(db.write) as session:
        results = store(session, items, api_key_id=None, source=Source.IMPORT)
    assert [r.outcome for r in results] == ["created"] * 5 + ["duplicate"] * 7 + ["created"] * 18
    with db.read() as session:
        logs = {h.id: h for h in session.scalars(select(HandLog))}
        assert sorted(h.game_id for h in logs.values()) == sorted(f"ids-{i}" for i in range(30))
        for h in logs.values():
            assert h.raw == raws[int(h.game_id.split("-")[1])]
        for p in session.scalars(select(LogPlayer)):
            assert p.player_id == json.loads(logs[p.log_id].raw)["players"][p.seat]["id"]
        verdicts = list(session.scalars(select(VerdictRow)))
        assert len(verdicts) == 30
        for v in verdicts:
            assert json.loads(v.verdict_json)["game_id"] == logs[v.log_id].game_id
        for f in session.scalars(select(FindingRow)):
            assert f.game_id == logs[f.log_id].game_id
        features = {f.log_id: f.data for f in session.scalars(select(FairplayFeatures))}
        assert len(features) == 30
        for log_id, data in features.items():
            assert data["g"] == logs[log_id].game_id


def test_json_text_is_what_json_dumps_writes() -> None:
    class Int(int):
        pass

    values: list[Any] = [
        [], [0], [1, 2, 3], [-5, 10**20], [True, 1], [False], [1.0, 2], ["a", 1], [[1]],
        [Int(3)], (1, 2), {"a": [1]}, "x", 7, None,
    ]
    for value in values:
        assert copy.json_text(value) == json.dumps(value), value


def test_driver_values_convert_a_repeated_object_once() -> None:
    calls: list[Any] = []

    def process(value: Any) -> str:
        calls.append(value)
        return f"<{value}>"

    when, same_value = [1], [1]  # equal, but not the same object
    rows: list[dict[str, Any]] = [
        {"a": when, "b": 1}, {"a": when, "b": 2}, {"a": None, "b": 3},
        {"a": same_value, "b": 4}, {"a": when, "b": 5},
    ]
    values = copy._driver_values(("a", "b"), (process, None), rows)
    assert values == [["<[1]>", 1], ["<[1]>", 2], [None, 3], ["<[1]>", 4], ["<[1]>", 5]]
    assert calls == [when, same_value, when]


def test_rows_returning_stores_every_value_as_given(db: Database) -> None:
    """The rows' values as stored (PostgreSQL: arrays a column, ``unnest``): NULLs, a
    column of NULLs only, bytes, times, non-ASCII text; ids map to their rows; a
    conflicting row is skipped; a value too long for its column is refused (not cut)."""
    from datetime import UTC, datetime

    from sqlalchemy.exc import DBAPIError

    from app.games.repository import LOGS

    when = datetime(2026, 12, 1, 16, 0, 0, 123456, tzinfo=UTC)

    def row(game_id: str, **kw: Any) -> dict[str, Any]:
        base: dict[str, Any] = {
            "game_id": game_id, "ruleset": "standard", "match_id": None, "hand_no": None,
            "dealer": 2, "started_at": None, "played_at": when,
            "raw": b"\x00\xff" + game_id.encode(),
            "raw_sha256": "a" * 64, "log_sha256": "b" * 64, "size_bytes": 3,
            "ingested_at": when, "api_key_id": None, "source": "import",
        }
        return base | kw

    rows = [row("rr-0"), row("rr-1 三", match_id="m-1", hand_no=4, started_at=when), row("rr-2")]
    with transaction(db.write) as session:
        found = copy.rows_returning(session, LOGS, rows, ("id", "game_id"), "game_id")
        again = copy.rows_returning(
            session, LOGS, [row("rr-1 三"), row("rr-3")], ("id", "game_id"), "game_id"
        )
    assert sorted(g for _, g in found) == ["rr-0", "rr-1 三", "rr-2"]
    assert [g for _, g in again] == ["rr-3"]
    with db.read() as session:
        stored = {h.id: h for h in session.scalars(select(HandLog))}
    for log_id, game_id in found + again:
        h = stored[log_id]
        assert h.game_id == game_id and h.raw == b"\x00\xff" + game_id.encode()
        assert h.played_at == when and h.dealer == 2 and h.api_key_id is None
    one = stored[dict((g, i) for i, g in found)["rr-1 三"]]
    assert (one.match_id, one.hand_no, one.started_at) == ("m-1", 4, when)
    if db.engine.dialect.name == "postgresql":  # SQLite does not hold VARCHAR lengths
        with pytest.raises(DBAPIError, match="too long"):
            with transaction(db.write) as session:
                copy.rows_returning(session, LOGS, [row("x" * 129)], ("id",), "game_id")


def test_among_selects_the_listed_rows_with_one_parameter(db: Database) -> None:
    """``among`` is ``IN``: the rows listed, none for an empty list, no match for a value
    longer than the column (PostgreSQL compares it whole, as text); there, one array
    parameter however many values."""
    from app.database import among

    raws = [log_bytes(f"among-{i}", index=i) for i in range(5)]
    with transaction(db.write) as session:
        store(session, [prepare(parse(raw, 64), verify=False) for raw in raws],
              api_key_id=None, source=Source.IMPORT)
    with db.read() as session:
        ids = dict(session.execute(select(HandLog.game_id, HandLog.id)).all())

        def game_ids(where: Any) -> list[str]:
            return sorted(session.scalars(select(HandLog.game_id).where(where)))

        assert game_ids(among(session, HandLog.id, [ids["among-1"], ids["among-3"], -1])) == [
            "among-1", "among-3"
        ]
        assert game_ids(among(session, HandLog.id, [])) == []
        long = "among-2" + "x" * 200
        assert game_ids(among(session, HandLog.game_id, ["among-2", long, "among-4"])) == [
            "among-2", "among-4"
        ]
        assert game_ids(among(session, HandLog.game_id, [long])) == []
        many = select(HandLog.id).where(among(session, HandLog.id, range(500)))
        compiled = many.compile(session.get_bind())
        if session.get_bind().dialect.name == "postgresql":
            assert "ANY" in str(compiled) and len(compiled.params) == 1
