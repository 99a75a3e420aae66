"""Hand logs for the tests (valid ones come from the demo's synthetic hands)."""

from __future__ import annotations

import json
import random
from typing import Any

from app.demo.synthetic import hand


def log_doc(
    game_id: str, *, seed: int = 0, doctor: str = "", index: int = 0, ruleset: str = "standard"
) -> dict[str, Any]:
    return hand(
        random.Random(f"{game_id}/{seed}"), index, ruleset=ruleset, doctor=doctor, game_id=game_id
    )


def log_bytes(game_id: str, **kw: Any) -> bytes:
    return json.dumps(log_doc(game_id, **kw), ensure_ascii=False).encode("utf-8")


def pretty(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, indent=2, ensure_ascii=False).encode("utf-8")


def engine_verdict(raw: bytes | dict[str, Any]) -> Any:
    """What the rules core says about a log (tests compare the service against it)."""
    from replay.engine import verify
    from replay.logformat import parse_log

    return verify(parse_log(json.dumps(raw).encode() if isinstance(raw, dict) else raw))
