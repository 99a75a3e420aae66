"""``python -m replay bench``: the median of repeated runs, each from cleared caches."""

from __future__ import annotations

import json
import statistics

import pytest

from replay.tools.bench import run
from replay.tools.toolkit_cli import main


def test_the_figure_is_the_median_run() -> None:
    r = run(games=12, ruleset="hengshan", seed=3, win_checks=50, repeat=3)
    assert len(r.runs) == 3 and all(x > 0 for x in r.runs)
    assert r.hands_per_s == pytest.approx(statistics.median(r.runs))
    assert r.games == 12 and r.not_clean == 0


def test_the_cli_prints_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "5", "--win-checks", "20", "--repeat", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["runs"]) == 2
    assert out["hands_per_s"] in out["runs"]  # median_high: one of the runs


@pytest.mark.parametrize("bad", ["0", "-2", "two"])
def test_a_repeat_below_one_is_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench", "--games", "5", "--repeat", bad])
    assert exc.value.code == 2
    assert "expected a whole number of at least 1" in capsys.readouterr().err
