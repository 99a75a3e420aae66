"""``paohuzi-audit migrate`` says what it did: from which revision to which."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from app.cli.main import main
from app.migrate import alembic_config, downgrade

from .backends import blank_database


def test_migrate_says_what_it_did(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with blank_database(kind, tmp_path) as url:
        head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
        monkeypatch.setenv("PAOHUZI_DATABASE_URL", url)
        assert main(["migrate"]) == 0
        assert f"new database: created the schema, revision {head}" in capsys.readouterr().out
        assert main(["migrate"]) == 0
        assert f"already at revision {head} (the newest): nothing to do" in capsys.readouterr().out
        downgrade(url, "0002_cases")  # back to before the case workflow, and up again
        assert main(["migrate"]) == 0
        out = capsys.readouterr().out
        assert f"upgraded from revision 0002_cases to {head}" in out
        assert "password" not in out.lower() and ":secret@" not in out
