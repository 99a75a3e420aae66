"""The ``paohuzi-audit`` command, run in-process on a database of its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

import replay.engine
import replay.version
from app.auth.scopes import Scope
from app.auth.service import authenticate
from app.cli import main
from app.database import Database

from .backends import blank_database, fresh_database
from .conftest import row_counts
from .logs import log_bytes


@pytest.fixture
def cli_db(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Database]:
    with fresh_database(kind, tmp_path) as backend:
        monkeypatch.setenv("PAOHUZI_DATABASE_URL", backend.url)
        monkeypatch.setenv("PAOHUZI_BULK_BATCH_SIZE", "7")
        monkeypatch.setenv("PAOHUZI_VERIFY_MODE", "inline")  # the queue: test_queue*.py
        yield Database.from_engine(backend.engine)


def test_migrate(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with blank_database(kind, tmp_path) as url:
        monkeypatch.setenv("PAOHUZI_DATABASE_URL", url)
        assert main(["migrate"]) == 0
        assert main(["migrate"]) == 0  # idempotent
        from app.database import make_engine
        from app.migrate import current_revision

        engine = make_engine(url)
        assert current_revision(engine) is not None
        engine.dispose()


def test_keys(cli_db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "create", "--scope", "ingest", "--scope", "read", "--name", "srv7"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    secret = out[-1]
    assert secret.startswith("pha_") and " " not in secret
    with cli_db.read() as session:
        principal = authenticate(session, secret, Scope.READ)
    assert principal.name == "srv7" and principal.scopes == {"ingest", "read"}

    assert main(["keys", "list"]) == 0
    listing = capsys.readouterr().out
    assert "srv7" in listing and "ingest read" in listing and secret not in listing
    assert main(["keys", "revoke", str(principal.key_id)]) == 0
    assert "revoked" in capsys.readouterr().out
    assert main(["keys", "revoke", "999"]) == 2
    with pytest.raises(SystemExit):
        main(["keys", "create", "--scope", "everything"])


def test_import(cli_db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "logs"
    (folder / "day1").mkdir(parents=True)
    (folder / "a.json").write_bytes(log_bytes("imp-1"))
    (folder / "day1" / "b.json").write_bytes(log_bytes("imp-2", doctor="out_of_turn"))
    (folder / "day1" / "c.ndjson").write_bytes(
        b"\n".join(
            [log_bytes(f"imp-{i}") for i in range(3, 20)]
            + [b"{broken", log_bytes("imp-1", seed=5), log_bytes("imp-2", doctor="out_of_turn")]
        )
    )
    (folder / "notes.txt").write_text("ignored")
    assert main(["import", str(folder)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("19 created, 1 duplicate, 1 conflict, 1 rejected")
    assert "c.ndjson:18: rejected" in out
    assert "c.ndjson:19: conflict" in out
    counts = row_counts(cli_db)
    assert counts["hand_logs"] == 19 and counts["verdicts"] == 19

    assert main(["import", str(folder / "a.json")]) == 0
    assert "1 duplicate" in capsys.readouterr().out
    assert main(["import", str(tmp_path / "missing")]) == 2


def test_demo_if_empty(cli_db: Database, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--games", "25", "--if-empty"]) == 0
    first = row_counts(cli_db)
    assert first["hand_logs"] >= 25 and first["findings"] > 0
    assert main(["demo", "--if-empty"]) == 0
    assert "no demo hands added" in capsys.readouterr().out
    assert row_counts(cli_db) == first


def test_reaudit(
    cli_db: Database, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--games", "30"]) == 0
    capsys.readouterr()
    original = replay.engine.verify

    def stricter(log: object) -> object:
        verdict = original(log)  # type: ignore[arg-type]
        verdict = dataclasses.replace(verdict, engine="next")
        if log.game_id.endswith("3"):  # type: ignore[attr-defined]
            verdict = dataclasses.replace(verdict, score={"changed": True})
        return verdict

    monkeypatch.setattr(replay.version, "ENGINE_VERSION", "next")
    monkeypatch.setattr(replay.engine, "verify", stricter)
    assert main(["reaudit", "--batch-size", "8"]) == 0
    out = capsys.readouterr().out
    stored = row_counts(cli_db)["hand_logs"]
    changed = sum(1 for line in out.splitlines()[1:] if line.strip())
    assert f"engine next: {stored} logs re-verified" in out
    assert f"{changed} changed" in out and changed >= 2
    assert main(["reaudit"]) == 0
    assert "0 logs re-verified" in capsys.readouterr().out
