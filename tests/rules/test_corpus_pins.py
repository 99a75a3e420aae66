"""Every verdict of the pinned corpora is byte-identical to its pin (see ``corpus.py``)."""

from __future__ import annotations

import pytest

from .corpus import RULESETS, compute, stored


@pytest.mark.parametrize("ruleset", RULESETS)
def test_corpus_verdicts_match_their_pins(ruleset: str) -> None:
    pins = stored()[ruleset]
    got = compute(ruleset)
    assert len(got) == 2000
    assert got.keys() == pins.keys()
    moved = sorted(gid for gid in pins if got[gid] != pins[gid])
    assert moved == []
