"""Fair play in the service: the features stored with each verdict, ``paohuzi-audit
fairplay scan`` over stored hands (incremental, back-filling hands without features) and
the ``/api/v1/fairplay`` endpoints, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.auth.service import create_key
from app.cli import main
from app.database import Database, transaction
from app.main import create_app
from app.models import FairplayFeatures, FairplayScan, HandLog, VerdictRow
from replay import parse_log
from replay.fairplay import extract

from .backends import Backend, fresh_database
from .conftest import make_settings

PLAYERS = 8
HANDS = 90
#: per database: hands with features once each import is done, before its scan
STORED_AT_IMPORT: dict[int, tuple[int, int]] = {}


def _stored(db: Database) -> int:
    """Hands with features; and every verified hand has them (stored with the verdict)."""
    with db.read() as session:
        features = session.query(FairplayFeatures).count()
        current = session.query(VerdictRow.log_id).filter(VerdictRow.is_current.is_(True))
        verified = current.count()
        with_both = current.join(FairplayFeatures,
                                 FairplayFeatures.log_id == VerdictRow.log_id).count()
    assert with_both == verified
    return features


@pytest.fixture(scope="module")
def population_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pop")
    assert main(["fairplay", "simulate", "--players", str(PLAYERS), "--hands", str(HANDS),
                 "--seed", "5", "--ruleset", "hengshan", "--plant", "pairs=1,seers=0",
                 "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def scanned(backend: Backend, tmp_path_factory: pytest.TempPathFactory, population_dir: Path,
            ) -> Iterator[tuple[Database, TestClient, str]]:
    """One database per backend for the module: the first 60 hands imported and scanned,
    then the rest imported and scanned again."""
    tmp = tmp_path_factory.mktemp("fairplay")
    with fresh_database(backend.kind, tmp) as fresh, pytest.MonkeyPatch.context() as mp:
        mp.setenv("PAOHUZI_DATABASE_URL", fresh.url)
        db = Database.from_engine(fresh.engine)
        lines = (population_dir / "hands.ndjson").read_text().splitlines()
        first = tmp / "first.ndjson"
        first.write_text("\n".join(lines[:60]) + "\n")
        rest = tmp / "rest.ndjson"
        rest.write_text("\n".join(lines[60:]) + "\n")
        assert main(["import", str(first)]) == 0
        at_first = _stored(db)
        assert main(["fairplay", "scan"]) == 0
        with db.read() as session:
            assert session.query(FairplayFeatures).count() == 60
        assert main(["import", str(rest)]) == 0
        STORED_AT_IMPORT[id(db)] = (at_first, _stored(db) - 60)
        assert main(["fairplay", "scan"]) == 0
        with transaction(db.write) as session:
            _, secret = create_key(session, "t", ("read",))
            _, ingest_only = create_key(session, "i", ("ingest",))
        with TestClient(create_app(make_settings(fresh), db=db)) as client:
            client.headers["X-API-Key"] = secret
            yield db, client, ingest_only


def test_scan_is_incremental(scanned: tuple[Database, TestClient, str],
                             capsys: pytest.CaptureFixture[str]) -> None:
    db, _, _ = scanned
    with db.read() as session:
        scans = session.query(FairplayScan).order_by(FairplayScan.id).all()
        first, rest = STORED_AT_IMPORT[id(db)]
        assert [(s.hands, s.new_hands) for s in scans[:2]] == [(60, 60 - first),
                                                               (HANDS, HANDS - 60 - rest)]
        assert session.query(FairplayFeatures).count() == HANDS
    capsys.readouterr()
    assert main(["fairplay", "scan"]) == 0
    assert f"{HANDS} hands (0 new" in capsys.readouterr().out


def test_stored_features_are_those_of_extract_and_a_scan_reads_the_missing(
        scanned: tuple[Database, TestClient, str], capsys: pytest.CaptureFixture[str]) -> None:
    db, _, _ = scanned
    with db.read() as session:
        rows = session.query(HandLog.id, HandLog.raw, FairplayFeatures.data).join(
            FairplayFeatures, FairplayFeatures.log_id == HandLog.id).order_by(HandLog.id).all()
    assert len(rows) == HANDS
    for _, raw, data in rows:
        assert data == extract(parse_log(bytes(raw))).to_json()
    gone = [log_id for log_id, _, _ in rows[::9]]
    with transaction(db.write) as session:
        session.query(FairplayFeatures).filter(FairplayFeatures.log_id.in_(gone)).delete()
    capsys.readouterr()
    assert main(["fairplay", "scan"]) == 0
    assert f"{HANDS} hands ({len(gone)} new" in capsys.readouterr().out
    with db.read() as session:
        again = dict(session.query(FairplayFeatures.log_id, FairplayFeatures.data).all())
    assert again == {log_id: data for log_id, _, data in rows}


def test_pairs_ranked_with_the_planted_pair_first(
        scanned: tuple[Database, TestClient, str], population_dir: Path) -> None:
    _, client, ingest_only = scanned
    labels = json.loads((population_dir / "labels.json").read_text())
    r = client.get("/api/v1/fairplay/pairs")
    assert r.status_code == 200
    body = r.json()
    pairs = body["pairs"]
    assert pairs and body["hands"] == HANDS
    scores = [p["score"] for p in pairs]
    assert scores == sorted(scores, reverse=True)
    top = pairs[0]
    assert top["players"] == labels["pairs"][0]
    assert set(top) == {"players", "score", "flagged", "hands", "detectors", "evidence"}
    assert set(top["detectors"]) == {"feed", "wait", "flow", "passes", "coplay"}
    assert isinstance(top["flagged"], bool) and top["hands"] > 0
    assert top["evidence"] and all(set(e) == {"detector", "game_id", "seq", "note"}
                                   for e in top["evidence"])
    game = client.get(f"/api/v1/games/{top['evidence'][0]['game_id']}")
    assert game.status_code == 200
    assert client.get("/api/v1/fairplay/pairs", params={"limit": 2}).json()["pairs"] == pairs[:2]
    assert client.get("/api/v1/fairplay/pairs", params={"limit": 0}).status_code == 422
    assert client.get("/api/v1/fairplay/pairs",
                      headers={"X-API-Key": ingest_only}).status_code == 403
    assert client.get("/api/v1/fairplay/pairs", headers={"X-API-Key": ""}).status_code == 401


def test_player_record(scanned: tuple[Database, TestClient, str], population_dir: Path) -> None:
    _, client, _ = scanned
    labels = json.loads((population_dir / "labels.json").read_text())
    a, b = labels["pairs"][0]
    r = client.get(f"/api/v1/fairplay/players/{a}")
    assert r.status_code == 200
    body = r.json()
    assert body["player"] == a and "quality" in body["detectors"]
    assert body["pairs"][0]["players"] == [a, b]
    assert any(p["player"] == b for p in body["partners"])
    hands = [p["hands"] for p in body["partners"]]
    assert hands == sorted(hands, reverse=True)
    assert client.get("/api/v1/fairplay/players/nobody").status_code == 404
