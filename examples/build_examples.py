"""Writes the hand-written example logs in this folder and their golden verdicts
in ``golden/`` (run it on purpose, after a deliberate rule change:
``python examples/build_examples.py``; review the diff). Each file name starts
with the status its verdict must have; tests/rules/test_examples_cli.py checks that and
that every verdict is still byte-identical to its golden copy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE.parent)]

from tests.rules.builder import HandBuilder  # noqa: E402
from tests.rules.changde_examples import changde_examples  # noqa: E402

WIN = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x1 x2"


def examples() -> dict[str, HandBuilder]:
    out: dict[str, HandBuilder] = {}

    b = HandBuilder(["d10", WIN, "x3"], stock="x3", shown="d10", game_id="ex-standard-zimo")
    b.discard(0, "d10").draw(1).hu(1, "x3").commit("ex1")
    b.result(outcome="hu", winner=1, huxi=21, grade=4, fans=[], multiplier=1, points=4,
             scores=[-4, 8, -4])
    out["clean_standard_zimo.json"] = b

    b = HandBuilder(["x3", WIN, ""], stock="d9", ruleset="hengshan", avoid="x3",
                    rules={"stake": 10}, game_id="ex-hengshan-fangpao")
    b.discard(0, "x3").hu(1, "x3")
    b.result(outcome="hu", winner=1, huxi=21, grade=5, duo=0, fans=[], multiplier=1, points=5,
             scores=[-100, 100, 0])
    out["clean_hengshan_fang_pao.json"] = b

    b = HandBuilder(["x5 x3", "x5*3 x6*3 x10", "x3"], stock="x6", game_id="ex-chong-pao")
    b.discard(0, "x5").pao(1, "x5").discard(1, "x10").draw(2).pao(1, "x6").draw(2)
    b.end("abandoned")
    out["clean_standard_chong_pao.json"] = b

    b = HandBuilder(["x3*2", "x4 x5", "x3"], stock="x3", game_id="ex-guo-zhang")
    b.discard(0, "x3").draw(1).chi(1, "x3", "x3 x4 x5").end("abandoned")
    out["violations_guo_zhang.json"] = b

    b = HandBuilder(["d10 x3", WIN, "x3"], stock="x3 x3", shown="d10", game_id="ex-chou-hu")
    b.discard(0, "d10").draw(1).draw(2).hu(1, "x3")
    out["violations_chou_hu.json"] = b

    b = HandBuilder(["x5 x3", "x5*3 x6*3 x10", "x3"], stock="x6", game_id="ex-ba-kuai")
    b.discard(0, "x5").pao(1, "x5").discard(1, "x10").draw(2).pao(1, "x6").discard(1, "x1")
    b.end("abandoned")
    out["violations_discard_not_owed.json"] = b

    b = HandBuilder(["d10", WIN, "x3"], stock="x3", shown="d10", game_id="ex-wrong-score")
    b.discard(0, "d10").draw(1).hu(1, "x3")
    b.result(outcome="hu", winner=1, huxi=21, grade=3, points=3, scores=[-3, 6, -3])
    out["violations_score_mismatch.json"] = b

    b = HandBuilder(["x2", "x1 x1 x2 x2 x3 x3 x4 d2 d2", ""], stock="d9", ruleset="hengshan",
                    game_id="ex-shao-bi")
    b.discard(0, "x2").chi(1, "x2", "x2 d2 d2", "x1 x2 x3").discard(1, "x3").end("abandoned")
    out["violations_hengshan_shao_bi.json"] = b

    b = HandBuilder(["x9*4 x8*4", "", ""], stock="x6 x5", game_id="ex-draw-mismatch")
    b.ti(0, "x9").ti(0, "x8").draw(1, "x5").discard(1, "x1")
    out["invalid_draw_mismatch.json"] = b
    out.update(changde_examples())
    return out


def main() -> None:
    from replay.engine import verify
    from replay.logformat import parse_log

    golden = HERE / "golden"
    golden.mkdir(exist_ok=True)
    for name, b in examples().items():
        text = json.dumps(b.build(), ensure_ascii=False, indent=1)
        (HERE / name).write_text(text + "\n", encoding="utf-8")
        verdict = verify(parse_log(text.encode()))
        (golden / name).write_bytes(verdict.to_bytes(pretty=True) + b"\n")
        print("wrote", name, "and golden/" + name)


if __name__ == "__main__":
    main()
