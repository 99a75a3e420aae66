"""Perft-style counts that pin the claim analysis (python-chess's perft files, for claims).

For a fixed simulated corpus, every revealed card's window is counted: how many seats
could win on it, had to 跑, could 碰, could 吃, and the decisions are tallied.
A change in ``claims``/``chi``/``arrangements``/``ledger`` (or in the simulator's
bots, which play the corpus) that moves any of these numbers fails
``tests/rules/test_perft.py``; when the change is meant, regenerate on purpose and review
the diff:

    python tests/perft/counts.py --write
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from replay.audit import Audit  # noqa: E402
from replay.logformat import parse_log  # noqa: E402
from replay.state import State  # noqa: E402
from replay.tools.simulate import simulate  # noqa: E402

FILE = Path(__file__).with_name("claims.json")
CORPUS = {"standard": (120, 41), "hengshan": (120, 42)}  # ruleset: (hands, seed)


def counts(ruleset: str) -> dict[str, int]:
    hands, seed = CORPUS[ruleset]
    total: Counter[str] = Counter()
    for doc in simulate(hands, seed, ruleset):
        seen: set[int] = set()

        def hook(i: int, r: State, seen: set[int] = seen) -> None:
            w = r.window
            if w is None or w.seq in seen:
                return
            seen.add(w.seq)
            total["windows"] += 1
            total["windows_on_draw" if w.drawn else "windows_on_discard"] += 1
            total["hu_seats"] += len(w.hu)
            total["pao_forced"] += w.pao is not None
            total["peng_seats"] += w.peng is not None
            total["chi_seats"] += len(w.chi)

        verdict = Audit(parse_log(json.dumps(doc)), on_step=hook).run()
        total["hands"] += 1
        for d in verdict.decisions:
            total[f"decision:{d.kind}"] += 1
    return dict(sorted(total.items()))


def all_counts() -> dict[str, Any]:
    return {ruleset: counts(ruleset) for ruleset in CORPUS}


if __name__ == "__main__":
    data = all_counts()
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if "--write" in sys.argv:
        FILE.write_text(text)
    print(text, end="")
