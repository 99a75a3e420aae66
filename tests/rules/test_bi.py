"""吃 and 比 (RULES §6), with the seed-000 reference cases."""

import pytest

from replay.cards import counts_of, parse_card
from replay.chi import ChiProblem, check_chi, chi_options
from replay.verdict import Status

from .builder import HandBuilder, cards, codes

# 一张小1，两张小2，两张小3，一张小4，两张大2; 吃进一张小2.
SEED_HAND = "x1 x2 x2 x3 x3 x4 d2 d2"
X2 = parse_card("x2")


def _hand(spec: str) -> list[int]:
    return counts_of(parse_card(c) for c in cards(spec))


def _groups(*specs: str) -> list[tuple[int, ...]]:
    return [tuple(sorted(parse_card(c) for c in cards(g))) for g in specs]


SEED_WAYS = [
    # 用两张大2吃: 吃 小2大2大2, 比 小1小2小3, 再比 小2小3小4 (順序可換)
    ("x2 d2 d2", "x1 x2 x3", "x2 x3 x4"),
    ("x2 d2 d2", "x2 x3 x4", "x1 x2 x3"),
    # 用小1小3吃: 吃 小1小2小3, 比 小2小2大2 (一次就完了)
    ("x1 x2 x3", "x2 x2 d2"),
    # ... 或比 小2大2大2, 再比 小2小3小4
    ("x1 x2 x3", "x2 d2 d2", "x2 x3 x4"),
    ("x1 x2 x3", "x2 x3 x4", "x2 d2 d2"),
]


@pytest.mark.parametrize("way", SEED_WAYS)
def test_seed_000_ways_are_legal(way: tuple[str, ...]) -> None:
    problem, why = check_chi(_hand(SEED_HAND), X2, _groups(*way))
    assert problem is None, why


def test_seed_000_ways_are_all_enumerated() -> None:
    options = {(o.taken, tuple(sorted(o.bi))) for o in chi_options(_hand(SEED_HAND), X2)}
    for way in SEED_WAYS:
        g = _groups(*way)
        assert (g[0], tuple(sorted(g[1:]))) in options


@pytest.mark.parametrize(
    "way",
    [
        ("x2 d2 d2", "x1 x2 x3"),  # one 小2 left in hand: 烧比
        ("x2 d2 d2",),
        ("x1 x2 x3",),
    ],
)
def test_seed_000_shao_bi(way: tuple[str, ...]) -> None:
    problem, _ = check_chi(_hand(SEED_HAND), X2, _groups(*way))
    assert problem is ChiProblem.BI_MISSING


def test_bi_impossible_means_no_chi() -> None:
    # 小1 小3 and one more 小2 that nothing can carry
    hand = _hand("x1 x3 x2 x9 d5")
    assert chi_options(hand, X2) == []
    problem, _ = check_chi(hand, X2, _groups("x1 x2 x3"))
    assert problem is ChiProblem.BI_IMPOSSIBLE


def test_chi_never_splits_a_kan() -> None:
    hand = _hand("x3*3 x4")
    problem, _ = check_chi(hand, X2, _groups("x2 x3 x4"))
    assert problem is ChiProblem.KAN


def test_bi_group_must_hold_the_taken_card() -> None:
    problem, _ = check_chi(_hand(SEED_HAND), X2, _groups("x1 x2 x3", "x2 x2 d2", "x3 x4 x2"))
    assert problem is ChiProblem.NOT_HELD or problem is ChiProblem.SHAPE


# In the engine: the dealer discards x2 and seat 1 (the seed hand) takes it.
def _seed_builder() -> HandBuilder:
    return HandBuilder(["x2", SEED_HAND, ""], stock="d9")


def test_engine_accepts_a_complete_bi() -> None:
    b = _seed_builder().discard(0, "x2").chi(1, "x2", "x1 x2 x3", "x2 x2 d2")
    v = b.discard(1, "d2").end("abandoned").verify()
    assert v.status is Status.CLEAN, codes(v)
    melds = b.state().table.seats[1].melds
    assert [str(m.kind) for m in melds] == ["chi", "bi"]


def test_engine_flags_shao_bi() -> None:
    b = _seed_builder().discard(0, "x2").chi(1, "x2", "x2 d2 d2", "x1 x2 x3")
    v = b.discard(1, "x3").end("abandoned").verify()
    assert codes(v) == [(1, "bi_missing")]


def test_engine_flags_chi_with_impossible_bi() -> None:
    b = HandBuilder(["x2", "x1 x3 x2 x9", ""], stock="d9", avoid="x4 x5 d2 x10 x7")
    v = b.discard(0, "x2").chi(1, "x2", "x1 x2 x3").discard(1, "x9").end("abandoned").verify()
    assert codes(v) == [(1, "chi_not_allowed")]


def test_engine_flags_chi_from_the_wrong_seat() -> None:
    # a discard may only be 吃'd by the discarder's next seat
    b = HandBuilder(["x2", "", "x1 x3"], stock="d9")
    v = b.discard(0, "x2").chi(2, "x2", "x1 x2 x3").discard(2, "x1").end("abandoned").verify()
    assert (1, "chi_not_allowed") in codes(v)


def test_engine_flags_chi_of_cards_not_held_as_invalid() -> None:
    b = HandBuilder(["x2", "x5", ""], stock="d9", avoid="x1 x3")
    v = b.discard(0, "x2").chi(1, "x2", "x1 x2 x3").verify()
    assert v.status is Status.INVALID
    assert codes(v) == [(1, "card_not_held")]


def test_can_chi_agrees_with_the_full_enumeration() -> None:
    import random

    from replay.chi import can_chi

    rng = random.Random(11)
    for _ in range(20000):
        hand = [0] * 20
        for _ in range(rng.randint(3, 20)):
            k = rng.randrange(20)
            hand[k] = min(4, hand[k] + 1)
        card = rng.randrange(20)
        assert can_chi(hand, card) == bool(chi_options(hand, card)), (hand, card)
