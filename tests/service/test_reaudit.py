"""Re-audit after the engine version changes: the changed verdicts are reported."""

from __future__ import annotations

import dataclasses

import pytest
from fastapi.testclient import TestClient

import replay.engine
import replay.version
from app.database import Database
from app.main import create_app
from app.settings import Settings
from replay.model import Log
from replay.verdict import Code, Finding, Severity, Status, Verdict

from .conftest import row_counts
from .logs import log_bytes

NEW = "paohuzi-replay/test-next"
REAUDIT = "/api/v1/admin/reaudit"


def switch_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine of another version that also flags games whose id ends in an even digit."""
    original = replay.engine.verify

    def verify(log: Log) -> Verdict:
        verdict = original(log)
        verdict = dataclasses.replace(verdict, engine=NEW)
        if int(log.game_id[-1]) % 2 == 0:
            extra = Finding(3, 1, Code.GUO_ZHANG, Severity.VIOLATION, "passed earlier", (1,))
            verdict = dataclasses.replace(
                verdict, status=Status.VIOLATIONS, findings=[*verdict.findings, extra]
            )
        return verdict

    monkeypatch.setattr(replay.version, "ENGINE_VERSION", NEW)
    monkeypatch.setattr(replay.engine, "verify", verify)


def _ingest(client: TestClient, headers: dict[str, str], n: int) -> str:
    for i in range(n):
        answer = client.post("/api/v1/games", content=log_bytes(f"ra-{i}"), headers=headers)
        assert answer.status_code == 201
    return str(answer.json()["verdict"]["engine"])


def test_reaudit_after_engine_change(
    client: TestClient, headers: dict[str, str], db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _ingest(client, headers, 6)
    assert old == replay.version.ENGINE_VERSION
    nothing = client.post(REAUDIT, headers=headers).json()
    assert nothing["checked"] == 0 and nothing["remaining"] == 0

    switch_engine(monkeypatch)
    partial = client.post(REAUDIT, json={"limit": 2}, headers=headers).json()
    assert partial["checked"] == 2 and partial["remaining"] == 4
    report = client.post(REAUDIT, headers=headers).json()
    assert report["engine"] == NEW
    assert report["checked"] == 4 and report["remaining"] == 0
    changed = {c["game_id"] for c in partial["changes"] + report["changes"]}
    assert changed == {"ra-0", "ra-2", "ra-4"}
    assert partial["changed"] + report["changed"] == 3
    assert partial["unchanged"] + report["unchanged"] == 3
    change = next(c for c in report["changes"] + partial["changes"] if c["game_id"] == "ra-2")
    assert change == {
        "game_id": "ra-2",
        "from_engine": old,
        "to_engine": NEW,
        "from_status": "clean",
        "to_status": "violations",
        "findings_before": 0,
        "findings_after": 1,
    }

    # The new verdicts are current; the old ones are still there by engine version.
    current = client.get("/api/v1/games/ra-2/verdict", headers=headers).json()
    assert current["engine"] == NEW and current["status"] == "violations"
    earlier = client.get(f"/api/v1/games/ra-2/verdict?engine={old}", headers=headers).json()
    assert earlier["engine"] == old and earlier["status"] == "clean"
    assert client.get("/api/v1/games/ra-2", headers=headers).json()["engines"] == [old, NEW]
    # Finding rows follow the current verdicts.
    items = client.get("/api/v1/findings?code=guo_zhang", headers=headers).json()["items"]
    assert sorted(f["game_id"] for f in items) == ["ra-0", "ra-2", "ra-4"]
    counts = row_counts(db)
    assert counts["verdicts"] == 12 and counts["findings"] == 3

    again = client.post(REAUDIT, headers=headers).json()
    assert again["checked"] == 0 and again["remaining"] == 0


def test_reaudit_verifies_unverified_logs(
    settings: Settings, db: Database, headers: dict[str, str]
) -> None:
    lazy = settings.model_copy(update={"verify_on_ingest": False})
    with TestClient(create_app(lazy, db=db)) as client:
        for i in range(3):
            client.post("/api/v1/games", content=log_bytes(f"lz-{i}"), headers=headers)
        report = client.post(REAUDIT, json={"game_ids": ["lz-0", "lz-2"]}, headers=headers).json()
        assert report["newly_verified"] == 2 and report["remaining"] == 0
        assert client.get("/api/v1/games/lz-1/verdict", headers=headers).status_code == 404
        assert client.get("/api/v1/games/lz-2/verdict", headers=headers).status_code == 200


def test_reaudit_replaces_the_fair_play_features(
    client: TestClient, headers: dict[str, str], db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.models import FairplayFeatures, HandLog
    from replay import parse_log
    from replay.fairplay import extract

    def features() -> dict[str, object]:
        with db.read() as session:
            rows = session.query(HandLog.game_id, HandLog.raw, FairplayFeatures.data).join(
                FairplayFeatures, FairplayFeatures.log_id == HandLog.id).all()
        for _, raw, data in rows:
            assert data == extract(parse_log(bytes(raw))).to_json()
        return {g: data for g, _, data in rows}

    _ingest(client, headers, 3)
    stored = features()
    assert set(stored) == {"ra-0", "ra-1", "ra-2"}  # stored with the verdicts
    # a new engine version, the same audit: re-read in the re-audit's walk
    monkeypatch.setattr(replay.version, "ENGINE_VERSION", "paohuzi-replay/test-same")
    assert client.post(REAUDIT, headers=headers).json()["checked"] == 3
    assert features() == stored
    # an engine swapped in: the old features go, the scan reads them again
    switch_engine(monkeypatch)
    assert client.post(REAUDIT, headers=headers).json()["checked"] == 3
    assert features() == {}


def test_reaudit_decision_counts_follow_the_current_verdicts(
    client: TestClient, headers: dict[str, str], db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The counts of the old verdicts go, the new verdicts' come: an engine that finds no
    decision in the even games leaves only the odd games' counted."""
    import json

    from replay.tools.simulate import simulate

    for i, doc in enumerate(simulate(4, 21, "standard")):
        doc["game_id"] = f"rd-{i}"
        answer = client.post("/api/v1/games", content=json.dumps(doc), headers=headers)
        assert answer.status_code == 201

    def decisions(game_id: str) -> int:
        verdict = client.get(f"/api/v1/games/{game_id}/verdict", headers=headers).json()
        return sum(1 for d in verdict["decisions"] if 0 <= d["seat"] < 3)

    before = [decisions(f"rd-{i}") for i in range(4)]
    assert row_counts(db)["decisions"] == sum(before) and min(before) > 0

    original = replay.engine.verify

    def verify(log: Log) -> Verdict:
        verdict = dataclasses.replace(original(log), engine=NEW)
        if int(log.game_id[-1]) % 2 == 0:
            verdict = dataclasses.replace(verdict, decisions=[])
        return verdict

    monkeypatch.setattr(replay.version, "ENGINE_VERSION", NEW)
    monkeypatch.setattr(replay.engine, "verify", verify)
    assert client.post(REAUDIT, headers=headers).json()["checked"] == 4
    after = [decisions(f"rd-{i}") for i in range(4)]
    assert after == [0, before[1], 0, before[3]]
    assert row_counts(db)["decisions"] == sum(after)
