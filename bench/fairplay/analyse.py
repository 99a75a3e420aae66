"""Acceptance figures and plots of the fair-play detectors (docs/fairplay.md).

    .venv/bin/python bench/fairplay/analyse.py /tmp/fp_acc --docs docs [--cost cost.json]

reads the populations written by ``population_run.py`` (``std-cheats``,
``hs-cheats``, ``cd-cheats``: 60 players, two colluding pairs and one all-seeing player;
``std-clean``, ``hs-clean``, ``cd-clean``: no cheats; ``*-clean18``: 18 players), runs
every detector (``replay.fairplay.scan``) and writes ``docs/fairplay-results.json`` and
the PNG plots ``docs/fairplay-*.png``. The entries of populations not found under the
root are kept from the results file as it was (a profile can be measured alone); the
score histogram is redrawn only when every profile's planted population was read.

- ranks: each planted cheat's rank on each detector and on the combined score, flagged;
- false flags on the clean populations, among pairs with at least 200 shared hands;
- hands needed: the pair's (or seer's) shared hands are cut into disjoint blocks of
  ``n`` hands in time order (each block stands for one seed: an independent sample of
  that many shared hands); a detector's statistic is computed on the block against the
  whole population's null, and the detection rate at ``n`` is the share of blocks
  flagged (z at or above ``DETECTOR_THRESHOLD``);
- timing: all detectors over 100,000 stored hands (features decoded from JSON and
  aggregated) against verifying them (the per-hand verification time measured while
  the populations were made, on one core); with ``--cost``, instead, the figures of
  ``bench/fairplay/scan_cost.py`` (the service's scan and back-fill against verifying).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay.fairplay import HandFeatures, scan
from replay.fairplay.common import pair_key
from replay.fairplay.feed import FeedMatrix
from replay.fairplay.flow import PointFlow
from replay.fairplay.passes import PassedClaims
from replay.fairplay.quality import HiddenInformation
from replay.fairplay.rank import (
    DETECTOR_THRESHOLD,
    MIN_HANDS,
    PAIR_DETECTORS,
    PAIR_THRESHOLD,
    Report,
)
from replay.fairplay.wait import FeedingTheWait

PROFILES = (("standard", "std"), ("hengshan", "hs"), ("changde", "cd"))
BLOCKS = (25, 50, 100, 200, 400)
BLOCK_DETECTORS = ("feed", "wait", "flow", "passes")
VERIFY_SAMPLE = 4000


def load(d: Path, limit: int | None = None) -> list[HandFeatures]:
    out = []
    with (d / "features.ndjson").open() as f:
        for line in f:
            if not line.endswith("\n"):
                break  # a line still being written
            out.append(HandFeatures.from_json(json.loads(line)))
            if limit is not None and len(out) >= limit:
                break
    return out


def _detector(name: str) -> Any:
    return {"feed": FeedMatrix, "wait": FeedingTheWait, "flow": PointFlow,
            "passes": PassedClaims, "quality": HiddenInformation}[name]()


def block_rates(feats: Sequence[HandFeatures], pairs: list[tuple[str, str]],
                seers: list[str]) -> dict[str, dict[int, list[int]]]:
    """detector -> n -> [blocks flagged, blocks] over the planted pairs (seers for quality)."""
    full = {name: _detector(name) for name in (*BLOCK_DETECTORS, "quality")}
    for h in feats:
        for d in full.values():
            d.add(h)
    out: dict[str, dict[int, list[int]]] = {n: {} for n in (*BLOCK_DETECTORS, "quality")}
    for name in (*BLOCK_DETECTORS, "quality"):
        keys: list[Any] = list(seers) if name == "quality" else list(pairs)
        for key in keys:
            mine = [h for h in feats if (key in h.players if name == "quality"
                                         else set(key) <= set(h.players))]
            for n in BLOCKS:
                acc = out[name].setdefault(n, [0, 0])
                for i in range(0, len(mine) - n + 1, n):
                    d = _detector(name)
                    for h in mine[i:i + n]:
                        d.add(h)
                    for null in ("null", "fed"):  # the population's moments
                        if hasattr(d, null):
                            getattr(d, null).population = getattr(full[name], null).population
                    res = d.results()
                    stat = res.get(key if name == "quality" else pair_key(*key))
                    acc[1] += 1
                    acc[0] += int(stat is not None and stat.z >= DETECTOR_THRESHOLD)
    return out


def coplay_rates(feats: Sequence[HandFeatures], pairs: list[tuple[str, str]]
                 ) -> dict[int, list[int]]:
    """Co-play is about how often a pair shares a table, so it is read on prefixes of the
    population (in time order): n -> [pairs flagged once they shared n hands, pairs]."""
    from replay.fairplay.coplay import CoPlay

    flagged_at: dict[tuple[str, str], int | None] = {p: None for p in pairs}
    co = CoPlay()
    step = 250
    for i, h in enumerate(feats, 1):
        co.add(h)
        if i % step and i != len(feats):
            continue
        res = co.results()
        for p in pairs:
            st = res.get(pair_key(*p))
            if flagged_at[p] is None and st is not None and st.z >= DETECTOR_THRESHOLD:
                flagged_at[p] = int(st.observed)
    return {n: [sum(1 for v in flagged_at.values() if v is not None and v <= n), len(pairs)]
            for n in BLOCKS}


def needed(rates: dict[int, list[int]]) -> int | None:
    for n in BLOCKS:
        flagged, total = rates.get(n, [0, 0])
        if total and flagged / total >= 0.9:
            return n
    return None


def ranks(report: Report, labels: dict[str, Any]) -> dict[str, Any]:
    planted = [tuple(p) for p in labels["pairs"]]
    out: dict[str, Any] = {"pairs": {}, "seers": {}}
    for p in planted:
        entry: dict[str, Any] = {}
        me = next(r for r in report.pairs if r.players == p)
        for det in (*PAIR_DETECTORS, "score"):
            def val(r: Any, det: str = det) -> float:
                return float(r.score if det == "score" else r.detectors[det].z)
            honest = [val(r) for r in report.pairs if r.players not in planted]
            entry[det] = {"value": round(val(me), 2), "best_honest": round(max(honest), 2),
                          "above_every_honest": val(me) > max(honest)}
        entry["flagged"] = me.flagged
        entry["hands"] = me.hands
        out["pairs"][" ".join(p)] = entry
    out["players_flagged"] = [r.player for r in report.players if r.flagged]
    for s in labels["seers"]:
        me = next(r for r in report.players if r.player == s)
        honest = [r.score for r in report.players if r.player != s
                  and r.player not in {x for p in planted for x in p}]
        out["seers"][s] = {"value": round(me.score, 2), "best_honest": round(max(honest), 2),
                           "above_every_honest": me.score > max(honest), "flagged": me.flagged,
                           "choices": me.detectors["quality"].n}
    return out


def clean_flags(report: Report) -> dict[str, Any]:
    big = [r for r in report.pairs if r.hands >= 200]
    return {"pairs": len(report.pairs), "pairs_200": len(big),
            "flagged_200": sum(r.flagged for r in big),
            "flagged_any": sum(r.flagged for r in report.pairs),
            "max_score_200": round(max((r.score for r in big), default=0.0), 2),
            "max_score": round(max((r.score for r in report.pairs), default=0.0), 2),
            "players_flagged": sum(r.flagged for r in report.players),
            "max_player": round(max((r.score for r in report.players), default=0.0), 2)}


def skilled(report: Report, roster: dict[str, Any]) -> dict[str, Any]:
    tiers = {p["id"]: p["tier"] for p in roster["players"] if p["role"] == "honest"}
    experts = [r for r in report.players if tiers.get(r.player) == "expert"]
    return {"experts": len(experts), "flagged": sum(r.flagged for r in experts),
            "max_score": round(max((r.score for r in experts), default=0.0), 2)}


def timing(dirs: list[Path], feats: list[list[HandFeatures]], target: int) -> dict[str, Any]:
    lines: list[str] = []
    for d in dirs:
        with (d / "features.ndjson").open() as f:
            lines += [ln for ln in f if ln.endswith("\n")]
    reps = math.ceil(target / len(lines))
    corpus = (lines * reps)[:target]
    t = time.perf_counter()
    decoded = [HandFeatures.from_json(json.loads(ln)) for ln in corpus]
    t_decode = time.perf_counter() - t
    t = time.perf_counter()
    scan(lambda: decoded)
    t_scan = time.perf_counter() - t
    # verification, in the same sitting: a sample of the stored hands, scaled
    from replay import parse_log, verify

    sample: list[bytes] = []
    for d in dirs:
        with (d / "hands.ndjson").open("rb") as f:
            for i, ln in enumerate(f):
                if i >= VERIFY_SAMPLE // len(dirs):
                    break
                sample.append(ln)
    t = time.perf_counter()
    for raw in sample:
        verify(parse_log(raw))
    per_verify = (time.perf_counter() - t) / len(sample)
    feat = hands = 0.0
    for d in dirs:
        tj = d / "timing.json"
        if tj.exists():
            j = json.loads(tj.read_text())
            feat += j["features_s"] / j["verify_s"]
            hands += 1
    per_feat = per_verify * feat / hands if hands else float("nan")
    return {"hands": target, "detectors_s": round(t_decode + t_scan, 1),
            "decode_s": round(t_decode, 1), "aggregate_s": round(t_scan, 1),
            "verify_s_estimated": round(per_verify * target, 1),
            "verify_ms_per_hand": round(per_verify * 1000, 3),
            "features_ms_per_hand": round(per_feat * 1000, 3), "timed_hands": len(sample)}


def plots(docs: Path, curves: dict[str, dict[str, dict[int, list[int]]]],
          scores: dict[str, tuple[list[float], list[float]]], histogram: bool = True) -> None:
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for det in (*BLOCK_DETECTORS, "coplay", "quality"):
        fig, ax = plt.subplots(figsize=(5, 3.2))
        for prof, c in curves.items():
            xs = [n for n in BLOCKS if c[det].get(n, [0, 0])[1]]
            ys = [c[det][n][0] / c[det][n][1] for n in xs]
            ax.plot(xs, ys, marker="o", label=prof)
        ax.set_xscale("log")
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        ax.set_xticks(list(BLOCKS), [str(n) for n in BLOCKS])
        ax.set_ylim(-0.02, 1.02)
        ax.axhline(0.9, color="grey", lw=0.8, ls="--")
        who = "all-seeing player's hands" if det == "quality" else "shared hands of the pair"
        ax.set_xlabel(who)
        ax.set_ylabel("detection rate")
        ax.set_title(f"{det}: flagged at z ≥ {DETECTOR_THRESHOLD}")
        ax.legend()
        fig.tight_layout()
        fig.savefig(docs / f"fairplay-detection-{det}.png", dpi=90)
        plt.close(fig)
    if not histogram:
        return
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for prof, (honest, planted) in scores.items():
        ax.hist(honest, bins=40, alpha=0.5, label=f"{prof}: honest pairs")
        ax.scatter(planted, [1] * len(planted), marker="v", s=60, label=f"{prof}: planted")
    ax.axvline(PAIR_THRESHOLD, color="red", lw=1, ls="--", label="threshold")
    ax.set_yscale("log")
    ax.set_xlabel("combined pair score (Stouffer z)")
    ax.set_ylabel("pairs")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(docs / "fairplay-scores.png", dpi=90)
    plt.close(fig)


def markdown(results: dict[str, Any]) -> str:
    """The acceptance section of docs/fairplay.md."""
    th = results["thresholds"]
    out = [f"Thresholds: pair score ≥ {th['pair']} or one detector z ≥ {th['detector']} "
           f"(≥ {th['min_hands']} shared hands); player `quality` ≥ {th['detector']}.", ""]
    for prof, _ in PROFILES:
        c = results.get(f"{prof}-cheats")
        if not c:
            continue
        out += [f"### {prof}: 60 players, {c['hands']:,} hands, 2 colluding pairs, 1 all-seeing "
                "player", "",
                "| planted | hands | " + " | ".join(PAIR_DETECTORS) + " | score | flagged |",
                "|---|---|" + "---|" * (len(PAIR_DETECTORS) + 2)]
        for name, e in c["ranks"]["pairs"].items():
            cells = [f"{e[d]['value']} ({'above' if e[d]['above_every_honest'] else 'NOT above'}"
                     f" best honest {e[d]['best_honest']})" for d in (*PAIR_DETECTORS, "score")]
            out.append(f"| pair {name} | {e['hands']} | " + " | ".join(cells)
                       + f" | {'yes' if e['flagged'] else 'no'} |")
        for name, e in c["ranks"]["seers"].items():
            out.append(f"| seer {name} | {e['choices']} discards | quality {e['value']} "
                       f"({'above' if e['above_every_honest'] else 'NOT above'} best honest "
                       f"player {e['best_honest']}) |" + " |" * (len(PAIR_DETECTORS))
                       + f" {'yes' if e['flagged'] else 'no'} |")
        sk = c["skilled"]
        colluders = {x for p in c["ranks"]["pairs"] for x in p.split()}
        also = [x for x in c["ranks"].get("players_flagged", []) if x in colluders]
        if also:
            out += ["", "Also flagged by `quality`: " + ", ".join(also) + " (planted colluders: "
                    "they see their partner's hand and use it to discard safely)."]
        out += ["", f"Honest experts (best bot style): {sk['experts']}, flagged "
                f"{sk['flagged']}, highest `quality` {sk['max_score']}. Honest pairs flagged: "
                f"{c['flags']['flagged_any'] - len(c['ranks']['pairs'])}.", "",
                "Hands needed (shared hands, or the seer's hands, at which ≥ 90% of "
                "blocks are flagged): " + ", ".join(
                    f"`{d}` {v if v is not None else '> 400'}"
                    for d, v in c["hands_needed_90"].items()), ""]
    out += ["### False flags without cheats", "",
            "| population | hands | pairs | pairs ≥ 200 shared hands | flagged among them | "
            "flagged (all pairs) | highest pair score | players flagged | highest player |",
            "|---|---|---|---|---|---|---|---|---|"]
    for key, label in (("standard-clean", "standard, 60 players"),
                       ("hengshan-clean", "hengshan, 60 players"),
                       ("changde-clean", "changde, 60 players"),
                       ("standard-clean18", "standard, 18 players"),
                       ("hengshan-clean18", "hengshan, 18 players"),
                       ("changde-clean18", "changde, 18 players")):
        c = results.get(key)
        if c:
            f = c["flags"]
            out.append(f"| {label} | {c['hands']:,} | {f['pairs']} | {f['pairs_200']} | "
                       f"{f['flagged_200']} | {f['flagged_any']} | {f['max_score']} | "
                       f"{f['players_flagged']} | {f['max_player']} |")
    out += ["", "### Time", ""]
    if "cost" in results:
        out += cost_markdown(results["cost"])
        return "\n".join(out)
    t = results["timing"]
    out += [f"All detectors over {t['hands']:,} stored hands (features decoded from JSON "
            f"{t['decode_s']} s + aggregated {t['aggregate_s']} s): **{t['detectors_s']} s**; "
            f"verifying them: {t['verify_ms_per_hand']} ms a hand measured in the same sitting "
            f"over {t['timed_hands']:,} of them, **{t['verify_s_estimated']} s**. Reading a "
            f"hand's features (one replay pass, once per hand, then stored) costs about "
            f"{t['features_ms_per_hand']} ms (its ratio to verification as measured while the "
            f"populations were made).",
            ""]
    return "\n".join(out)


def cost_markdown(c: dict[str, Any]) -> list[str]:
    """The figures of ``bench/fairplay/scan_cost.py``."""
    load = ", ".join(f"{x:.1f}" for x in c["load_before"])
    out = ["CPU time of one process (`time.process_time`), `bench/fairplay/scan_cost.py` "
           f"(load average {load} when it started: the machine was shared). Per hand, median "
           "of 3 runs:", "",
           "| profile | verify | verify + features (one walk) | features alone (`extract`) |",
           "|---|---|---|---|"]
    for prof, v in c.get("per_hand_ms", {}).items():
        out.append(f"| {prof} | {v['verify']} ms | {v['verify_and_features']} ms | "
                   f"{v['extract']} ms |")
    out += ["", "Through the service on SQLite (`paohuzi-audit import`, then `fairplay scan`; "
            "the hands of the changde population with cheats):", "",
            "| stored hands | verifying them | import (verify + features + store) | scan, "
            "features stored | scan / verify | scan from scratch (back-fill) | back-fill / "
            "verify |", "|---|---|---|---|---|---|---|"]
    for z in c["sizes"]:
        out.append(f"| {z['hands']:,} | {z['verify_s']} s | {z['import_s']} s | {z['scan_s']} s "
                   f"| {z['scan_over_verify']} | {z['backfill_s']} s | "
                   f"{z['backfill_over_verify']} |")
    if len(c["sizes"]) >= 2:
        a, b = c["sizes"][0], c["sizes"][-1]

        def at(key: str, n: int = 100_000) -> float:
            slope = (b[key] - a[key]) / (b["hands"] - a["hands"])
            return float(a[key] + slope * (n - a["hands"]))

        out += ["", f"Linear in the two sizes, at 100,000 stored hands: the scan "
                f"≈ {at('scan_s'):.0f} s against ≈ {at('verify_s'):.0f} s to verify them; "
                f"a scan from scratch ≈ {at('backfill_s'):.0f} s."]
    out.append("")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--docs", default="docs")
    ap.add_argument("--limit", type=int, default=None, help="hands per population")
    ap.add_argument("--timing-hands", type=int, default=100_000)
    ap.add_argument("--cost", default=None, help="output of bench/fairplay/scan_cost.py")
    args = ap.parse_args()
    root, docs = Path(args.root), Path(args.docs)
    path = docs / "fairplay-results.json"
    kept = json.loads(path.read_text()) if path.exists() else {}
    results: dict[str, Any] = {"thresholds": {"pair": PAIR_THRESHOLD,
                                              "detector": DETECTOR_THRESHOLD,
                                              "min_hands": MIN_HANDS}}
    curves: dict[str, dict[str, dict[int, list[int]]]] = {}
    scores: dict[str, tuple[list[float], list[float]]] = {}
    used: list[Path] = []
    feats_all: list[list[HandFeatures]] = []
    for prof, short in PROFILES:
        for kind in ("cheats", "clean", "clean18"):
            d = root / f"{short}-{kind}"
            if not (d / "features.ndjson").exists():
                if f"{prof}-{kind}" in kept:
                    results[f"{prof}-{kind}"] = kept[f"{prof}-{kind}"]
                    if kind == "cheats":
                        curves[prof] = {k: {int(n): v for n, v in c.items()}
                                        for k, c in kept[f"{prof}-{kind}"]["blocks"].items()}
                continue
            feats = load(d, args.limit)
            used.append(d)
            feats_all.append(feats)
            labels = json.loads((d / "labels.json").read_text())
            roster = json.loads((d / "players.json").read_text())
            report = scan(lambda feats=feats: feats)
            entry: dict[str, Any] = {"hands": len(feats), "skilled": skilled(report, roster),
                                     "flags": clean_flags(report)}
            if kind == "cheats":
                entry["ranks"] = ranks(report, labels)
                pairs = [(p[0], p[1]) for p in labels["pairs"]]
                c = block_rates(feats, pairs, labels["seers"])
                c["coplay"] = coplay_rates(feats, pairs)
                curves[prof] = {k: v for k, v in c.items()}
                entry["blocks"] = {k: {str(n): v for n, v in c[k].items()} for k in c}
                entry["hands_needed_90"] = {k: needed(c[k]) for k in c}
                planted = [tuple(p) for p in labels["pairs"]]
                scores[prof] = ([r.score for r in report.pairs if r.players not in planted],
                                [r.score for r in report.pairs if r.players in planted])
            results[f"{prof}-{kind}"] = entry
            print(prof, kind, json.dumps(entry)[:2000], file=sys.stderr, flush=True)
    if args.cost:
        # the last line of scan_cost.py's output (the commands it runs print before it)
        results["cost"] = json.loads(Path(args.cost).read_text().strip().splitlines()[-1])
    else:
        results["timing"] = timing(used, feats_all, args.timing_hands)
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    plots(docs, curves, scores, histogram=len(scores) == len(PROFILES))
    doc = docs / "fairplay.md"
    if doc.exists():
        text = doc.read_text()
        a, b = "<!-- results -->", "<!-- /results -->"
        if a in text and b in text:
            head, rest = text.split(a, 1)
            _, tail = rest.split(b, 1)
            doc.write_text(head + a + "\n" + markdown(results) + "\n" + b + tail)
    print(json.dumps(results.get("timing") or results["cost"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
