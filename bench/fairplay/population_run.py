"""One acceptance population: simulate, verify and read the features of every hand.

    .venv/bin/python bench/fairplay/population_run.py --ruleset standard --seed 1 \
        --plant pairs=2,seers=1 --players 60 --hands 20000 --out /tmp/fp_acc/std-cheats

Writes ``DIR/hands.ndjson`` (the logs), ``DIR/features.ndjson`` (one
``HandFeatures.to_json()`` a line), ``DIR/labels.json``, ``DIR/players.json`` and
``DIR/timing.json`` (seconds spent simulating, verifying and reading features, per
hand on one core). ``bench/fairplay/analyse.py`` reads the directories.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from replay import parse_log, verify
from replay.fairplay import extract
from replay.tools.population import Plant, population
from replay.tools.simulate import dumps


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plant", default="pairs=2,seers=1")
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pop, docs = population(args.players, args.hands, args.seed, args.ruleset,
                           Plant.parse(args.plant))
    (out / "labels.json").write_text(json.dumps(pop.labels) + "\n")
    (out / "players.json").write_text(json.dumps(pop.roster()) + "\n")
    t_sim = t_ver = t_feat = 0.0
    n = 0
    unclean = 0
    with (out / "hands.ndjson").open("w") as fh, (out / "features.ndjson").open("w") as ff:
        t = time.perf_counter()
        for doc in docs:
            t1 = time.perf_counter()
            t_sim += t1 - t
            raw = dumps(doc).encode("utf-8")
            fh.write(raw.decode("utf-8") + "\n")
            t2 = time.perf_counter()
            v = verify(parse_log(raw))
            t3 = time.perf_counter()
            f = extract(parse_log(raw))
            t4 = time.perf_counter()
            t_ver += t3 - t2
            t_feat += t4 - t3
            unclean += str(v.status) != "clean"
            ff.write(json.dumps(f.to_json(), separators=(",", ":")) + "\n")
            n += 1
            if n % 1000 == 0:
                print(f"{out.name}: {n} hands", file=sys.stderr, flush=True)
            t = time.perf_counter()
    timing = {"hands": n, "not_clean": unclean, "simulate_s": round(t_sim, 2),
              "verify_s": round(t_ver, 2), "features_s": round(t_feat, 2)}
    (out / "timing.json").write_text(json.dumps(timing) + "\n")
    print(json.dumps(timing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
