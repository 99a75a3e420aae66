"""The claim analysis still counts what tests/perft/claims.json pinned."""

import json

from .perft.counts import FILE, all_counts


def test_claim_counts_are_pinned() -> None:
    assert all_counts() == json.loads(FILE.read_text())
