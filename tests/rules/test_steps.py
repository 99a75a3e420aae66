"""The table at every step (replay.steps)."""

from replay.logformat import parse_log
from replay.steps import for_seat, table_steps

from .builder import HandBuilder

WIN = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x1 x2"


def test_one_snapshot_per_event_plus_the_deal() -> None:
    b = HandBuilder(["x5 x3", "x5*3 x6*3 x10", "x3"], stock="x6")
    b.discard(0, "x5").pao(1, "x5").discard(1, "x10").draw(2).pao(1, "x6").draw(2)
    b.end("abandoned")
    result = table_steps(parse_log(b.build()))
    steps = result.steps
    assert [s["seq"] for s in steps] == list(range(-1, 7))
    assert len(steps[0]["seats"][0]["hand"]) == 21 and steps[0]["stock_left"] == 19
    after_pao = steps[2]["seats"][1]
    assert after_pao["melds"] == [{"kind": "pao", "cards": ["x5"] * 4, "face_up": 4, "huxi": 6,
                                   "seq": 1, "origin": "kan"}]
    assert after_pao["table_huxi"] == 6 and len(after_pao["hand"]) == 17
    assert steps[1]["revealed"] == {"card": "x5", "from": 0, "source": "discard", "seq": 0}
    assert steps[5]["seats"][1]["table_huxi"] == 12
    assert steps[1]["seats"][0]["chou_pai"] == ["x5"]
    # the verdict is the one verify gives
    assert result.verdict.status.value == "clean"


def test_findings_land_on_their_step() -> None:
    b = HandBuilder(["x3*2", "x4 x5", "x3"], stock="x3")
    b.discard(0, "x3").draw(1).chi(1, "x3", "x3 x4 x5")
    steps = table_steps(parse_log(b.build())).steps
    assert [f["code"] for f in steps[3]["findings"]] == ["guo_zhang", "log_truncated"]
    assert steps[3]["seats"][1]["guo_zhang"] == ["x3"]


def test_seat_view_hides_other_hands_and_face_down_cards() -> None:
    b = HandBuilder(["x3", "", "x8*2"], stock="d9 x8")
    b.discard(0, "x3").draw(1).draw(2).wei(2, "x8").discard(2, "x1").end("abandoned")
    step = table_steps(parse_log(b.build())).steps[4]
    mine = for_seat(step, 2)
    assert mine["seats"][2]["melds"][0]["cards"] == ["x8", "x8", "x8"]
    other = for_seat(step, 0)
    assert other["seats"][2]["melds"][0]["cards"] == ["?", "?", "?"]
    assert set(other["seats"][1]["hand"]) == {"?"}
    assert "?" not in other["seats"][0]["hand"]


def test_invalid_log_stops_at_the_bad_event() -> None:
    b = HandBuilder(["x9*4 x8*4", "", ""], stock="x6 x5")
    b.ti(0, "x9").ti(0, "x8").draw(1, "x5").discard(1, "x1")
    steps = table_steps(parse_log(b.build())).steps
    assert steps[-1]["seq"] == 2
    assert [f["code"] for f in steps[-1]["findings"]] == ["draw_mismatch"]
