"""The digest ``tests/rules/test_native.py`` compares between the builds of the rules core:
the SHA-256 of every verdict's bytes and features' JSON of an NDJSON file of logs, in
order. Imported by the test (its own build) and run as a script in a subprocess (the
build that process selects: ``PAOHUZI_REPLAY_PURE``, ``PYTHONPATH``), which prints the
build, the digest and where each compiled module was loaded from, as JSON."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import replay.engine
from replay import native
from replay.fairplay.fused import verify_and_read
from replay.logformat import parse_log


def digest(lines: list[bytes]) -> str:
    h = hashlib.sha256()
    for raw in lines:
        verdict, features = verify_and_read(parse_log(raw), replay.engine.verify)
        h.update(verdict.to_bytes())
        h.update(json.dumps(None if features is None else features.to_json(),
                            sort_keys=True).encode())
    return h.hexdigest()


if __name__ == "__main__":
    found = digest(Path(sys.argv[1]).read_bytes().splitlines())
    files = sorted((m, sys.modules[m].__file__) for m in native.COMPILED)
    print(json.dumps({"build": native.BUILD, "digest": found, "files": files}))
