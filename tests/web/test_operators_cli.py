"""``paohuzi-audit operators create|list`` and the password hashes they store."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from sqlalchemy import select

from app.cli import main
from app.database import Database, make_engine
from app.migrate import upgrade
from app.models.operator import Operator
from app.operators.passwords import verify_password


def test_create_and_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    upgrade(url)
    monkeypatch.setenv("PAOHUZI_DATABASE_URL", url)
    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    assert main(["operators", "create", "carol", "--name", "Carol C", "--password-stdin"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("a long enough password\n"))
    assert main(["operators", "create", "carol", "--password-stdin"]) == 2  # exists
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert main(["operators", "create", "dave", "--password-stdin"]) == 2
    assert main(["operators", "list"]) == 0
    out = capsys.readouterr()
    assert "carol" in out.out and "Carol C" in out.out and "dave" not in out.out
    assert "argon2" not in out.out
    db = Database.from_engine(make_engine(url))
    try:
        with db.read() as session:
            row = session.scalars(select(Operator)).one()
        assert row.password_hash.startswith("$argon2id$")
        assert verify_password(row.password_hash, "a long enough password")
        assert not verify_password(row.password_hash, "a long enough passworD")
    finally:
        db.dispose()
