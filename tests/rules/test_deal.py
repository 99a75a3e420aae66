"""Deal integrity, the commitment, impossible events and the end of the log."""

from replay.verdict import Status

from .builder import HandBuilder, codes


def test_clean_abandoned_hand_has_no_findings() -> None:
    v = HandBuilder(["", "", ""]).end("abandoned").verify()
    assert v.status is Status.CLEAN
    assert v.findings == []
    assert v.score is not None
    assert v.score["expected"] == {"outcome": "abandoned", "winner": None, "scores": [0, 0, 0]}


def test_deal_with_wrong_counts_is_invalid() -> None:
    b = HandBuilder(["", "", ""])
    doc = b.build()
    first = doc["deal"]["hands"][1][0]
    # five of one kind, three of another
    doc["deal"]["hands"][1][0] = "d10" if first != "d10" else "x1"
    from replay.engine import verify
    from replay.logformat import parse_log

    v = verify(parse_log(doc))
    assert v.status is Status.INVALID
    assert codes(v) == [(None, "deal_invalid")]
    assert "4 times" in v.findings[0].message


def test_deal_with_wrong_hand_size_is_invalid() -> None:
    b = HandBuilder(["", "", ""])
    doc = b.build()
    doc["deal"]["stock"].append(doc["deal"]["hands"][0].pop(0))  # dealer 20, stock 20
    doc["deal"]["shown"] = doc["deal"]["hands"][0][-1]
    from replay.engine import verify
    from replay.logformat import parse_log

    v = verify(parse_log(doc))
    assert codes(v) == [(None, "deal_invalid")]
    assert "not 21" in v.findings[0].message and "not 19" in v.findings[0].message


def test_shown_card_must_be_the_dealers() -> None:
    b = HandBuilder(["x1", "d9*2", ""], shown="d9")
    v = b.end("abandoned").verify()
    assert codes(v) == [(None, "deal_invalid")]


def test_commitment_checked() -> None:
    ok = HandBuilder(["", "", ""]).commit().end("abandoned").verify()
    assert ok.status is Status.CLEAN
    bad = HandBuilder(["", "", ""]).commit(tamper=True).end("abandoned").verify()
    assert bad.status is Status.VIOLATIONS
    assert codes(bad) == [(None, "commitment_mismatch")]


def test_draw_that_is_not_the_stock_top_stops_the_replay() -> None:
    b = HandBuilder(["x9*4 x8*4", "", ""], stock="x6 x5")
    b.ti(0, "x9").ti(0, "x8").draw(1, "x5").discard(1, "x1")
    v = b.verify()
    assert v.status is Status.INVALID
    assert codes(v) == [(2, "draw_mismatch")]


def test_discarding_a_card_not_held_is_invalid() -> None:
    b = HandBuilder(["x1", "d9*2", "d9*2"])
    v = b.discard(0, "d9").verify()
    assert v.status is Status.INVALID
    assert codes(v) == [(0, "card_not_held")]


def test_log_that_stops_mid_hand_is_truncated() -> None:
    b = HandBuilder(["x1", "", ""], stock="x6")
    v = b.discard(0, "x1").verify()
    assert v.status is Status.VIOLATIONS
    assert codes(v) == [(1, "log_truncated")]


def test_events_after_the_end_are_refused() -> None:
    b = HandBuilder(["x1", "", ""])
    v = b.end("abandoned").discard(0, "x1").verify()
    assert v.status is Status.INVALID
    assert codes(v) == [(1, "event_after_end")]


def test_exhausted_with_cards_left_is_flagged() -> None:
    b = HandBuilder(["x9*4 x8*4", "", ""], stock="x6")
    v = b.ti(0, "x9").ti(0, "x8").end("exhausted").verify()
    assert codes(v) == [(2, "end_invalid")]
