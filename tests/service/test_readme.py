"""The README's commands work as written: ``make run``'s steps on a new SQLite database,
then every line of the README's curl block against the live server, in order, and the
``replay verify`` line for the malformed example."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .server import ROOT, Server

README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent

#: what each line of the curl block answers, in order (the CURSOR line makes one call)
EXPECTED = [201, 200, 200, 200, 200, 200, 422, 200, 201, 200, 200, 200, 200]

pytestmark = pytest.mark.slow


def _curl_block() -> str:
    found = re.search(r"```sh\n(KEY=pha_….*?)```", README, re.S)
    assert found, "the README has no curl block starting with KEY=pha_…"
    return found.group(1)


def _make_run_lines() -> list[str]:
    """The commands ``make run`` runs before it serves (the Makefile is the source)."""
    text = (ROOT / "Makefile").read_text()
    recipe = text.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    lines = [ln.strip().replace("$(VENV)", str(BIN.parent)) for ln in recipe.splitlines()[1:]]
    return [ln for ln in lines if ln and not ln.startswith("@") and " serve " not in ln]


def test_the_readme_commands_work_as_written(tmp_path: Path) -> None:
    env = {**os.environ, "PAOHUZI_DATABASE_URL": f"sqlite:///{tmp_path / 'readme.db'}",
           "PATH": f"{BIN}:{os.environ['PATH']}"}
    key = ""
    for line in _make_run_lines():
        if " demo " in line:
            line += " --games 12"  # the demo as make run loads it, smaller
        done = subprocess.run(line, shell=True, cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
        if " migrate" in line:
            assert "new database: created the schema" in done.stdout, done.stdout
        key = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else key
    assert key.startswith("pha_"), key

    server = Server(env["PAOHUZI_DATABASE_URL"], tmp_path / "server.log").start()
    try:
        block = _curl_block().replace("KEY=pha_…", f"KEY={key}")
        block = block.replace("http://127.0.0.1:8000", server.url)
        # every answer's status on stderr, one a line; stdout stays the body
        prelude = (
            "set -eu -o pipefail\n"
            "curl() { command curl -w '%{stderr}@@%{http_code}\\n' \"$@\"; }\n"
        )
        script = prelude + block
        done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        statuses = [int(s) for s in re.findall(r"@@(\d{3})", done.stderr)]
        assert statuses == EXPECTED, (statuses, done.stdout[-3000:])
        out = done.stdout
        assert '"pointer":"/query/code/0"' in out.replace(" ", "")  # the 422 of code=zzz
        assert '"outcome":"created"' in out.replace(" ", "") or "created" in out
        assert '"player_id":"p-1001"' in out.replace(" ", "")
        # sent again: the same hand is a duplicate (200), as the README says
        first = prelude + "\n".join(block.splitlines()[:2])  # KEY=… and the first curl
        again = subprocess.run(["bash", "-c", first], cwd=ROOT, env=env, capture_output=True,
                               text=True, timeout=60, check=False)
        assert re.findall(r"@@(\d{3})", again.stderr) == ["200"], again.stderr
    finally:
        server.stop()


def test_the_malformed_example_reads_as_the_readme_says() -> None:
    found = re.search(r"\n(\.venv/bin/python -m replay verify examples/malformed/bad\.json)"
                      r"\s+# exit 2\n# (.+)\n", README)
    assert found, "the README shows the malformed example and its message"
    command = found.group(1).replace(".venv/bin/python", sys.executable)
    done = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == found.group(2)
    assert "Traceback" not in done.stderr
