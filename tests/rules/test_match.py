"""Dealer rotation across the hands of a match (RULES §10)."""

from replay.engine import verify
from replay.logformat import parse_log
from replay.match import check_match, next_dealer
from replay.profiles import HENGSHAN, STANDARD

from .builder import HandBuilder


def test_next_dealer_rules() -> None:
    assert next_dealer(STANDARD, 0, "hu", 2, 0) == (2, 0)
    assert next_dealer(STANDARD, 0, "exhausted", None, 0) == (0, 1)
    assert next_dealer(STANDARD, 0, "exhausted", None, 1) == (0, 2)
    assert next_dealer(STANDARD, 0, "exhausted", None, 2) == (1, 0)  # the third in a row
    assert next_dealer(HENGSHAN, 0, "exhausted", None, 0) == (1, 0)  # 臭庄 passes at once
    assert next_dealer(STANDARD, 0, "abandoned", None, 1) == (None, 0)


def _hand(number: int, dealer: int, won_by: int | None) -> tuple:  # type: ignore[type-arg]
    hands = ["", "", ""]
    b = HandBuilder(hands, dealer=dealer, game_id=f"m-{number}")
    if won_by is None:
        b.end("abandoned")
    else:
        b.hu(won_by, None)
        hands[won_by] = "x1*4 x2*4 d5*4"
        b = HandBuilder(hands, dealer=dealer, game_id=f"m-{number}").hu(won_by, None)
    doc = b.build()
    doc["match"] = {"id": "room-1", "hand": number}
    log = parse_log(doc)
    return log, (verify(log).score or {}).get("expected")


def test_winner_deals_next() -> None:
    ok = [_hand(1, 0, 2), _hand(2, 2, None)]
    assert check_match(ok) == []
    bad = [_hand(1, 0, 2), _hand(2, 1, None)]
    problems = check_match(bad)
    assert [(p.hand, str(p.code)) for p in problems] == [(2, "match_invalid")]
    # an abandoned hand constrains nothing
    assert check_match([_hand(1, 0, None), _hand(2, 1, None)]) == []
