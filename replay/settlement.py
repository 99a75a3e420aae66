"""Compare the producer's claimed ``result`` with the expected score."""

from __future__ import annotations

from typing import Any

from .results import RESULT_INTS

# Fields a drawn or abandoned hand does not have: absent, null or 0 (fans: []) agree.
_WIN_ONLY = RESULT_INTS


def _agrees(field: str, claimed: Any, expected: dict[str, Any]) -> bool:
    if field == "fans":
        return sorted(claimed or []) == sorted(expected.get("fans") or [])
    if field in expected:
        return bool(claimed == expected[field])
    if field == "duo" or (field in _WIN_ONLY and expected.get("outcome") != "hu"):
        return claimed in (None, 0)
    return claimed is None


def compare_result(claimed: dict[str, Any], expected: dict[str, Any]) -> tuple[list[str], str]:
    """Every field given in ``claimed`` that differs from the expected score
    (``Score.to_json()``), and a message."""
    mismatches = sorted(f for f, v in claimed.items() if not _agrees(f, v, expected))
    parts = [
        f"{f}: claimed {claimed[f]!r}, expected {expected.get(f, 0 if f == 'duo' else None)!r}"
        for f in mismatches
    ]
    scores = claimed.get("scores")
    if isinstance(scores, list) and sum(scores) != 0 and "scores" in mismatches:
        parts.append("the claimed scores do not sum to 0")
    return mismatches, "the claimed result differs: " + "; ".join(parts)
