"""The game state and its legal actions (replay.state, replay.actions)."""

from __future__ import annotations

import pytest

from replay.actions import Action, action_of, legal_actions, seats_to_act
from replay.audit import Audit, Disagreement
from replay.cards import parse_card
from replay.logformat import parse_log
from replay.model import EventType
from replay.state import Phase, State

from .builder import HandBuilder, cards
from .corpus import RULESETS, corpus_lines
from .test_bi import SEED_HAND


def _state(b: HandBuilder) -> State:
    st = State(parse_log(b.build()))
    for e in st.log.events:
        st.apply(e)
    return st


def _of(st: State, type_: EventType) -> list[Action]:
    return [a for a in legal_actions(st) if a.type is type_]


def test_the_dealer_discards_first_and_a_kan_is_never_split() -> None:
    st = _state(HandBuilder(["x1 x1 x1 x2", "", ""]))
    assert st.phase is Phase.OPENING and seats_to_act(st) == (0,)
    discards = _of(st, EventType.DISCARD)
    assert {a.seat for a in discards} == {0}
    assert parse_card("x2") in {a.card for a in discards}
    assert parse_card("x1") not in {a.card for a in discards}  # a 坎 (kan_split)


def test_a_dealt_four_must_be_laid_before_the_seat_acts() -> None:
    st = _state(HandBuilder(["x1*4 x2", "", ""]))
    assert _of(st, EventType.DISCARD) == []  # 烧提 if it discarded now
    assert _of(st, EventType.TI) == [Action(EventType.TI, 0, parse_card("x1"))]
    st.apply(Action(EventType.TI, 0, parse_card("x1")).event())
    assert _of(st, EventType.DISCARD) != []


def test_each_chi_comes_with_each_complete_set_of_bi_groups() -> None:
    # the seed-000 hand takes x2: every legal 吃 carries a complete 比 (RULES §6)
    st = _state(HandBuilder(["x2", SEED_HAND, ""], stock="d9").discard(0, "x2"))
    assert st.phase is Phase.REVEALED
    chis = _of(st, EventType.CHI)
    assert chis and all(a.seat == 1 and len(a.groups) >= 2 for a in chis)
    ok = Action(EventType.CHI, 1, parse_card("x2"),
                (tuple(sorted(map(parse_card, cards("x1 x2 x3")))),
                 tuple(sorted(map(parse_card, cards("x2 x2 d2"))))))
    assert ok in chis
    assert Action(EventType.PASS, 1, parse_card("x2")) in legal_actions(st)
    # nobody claims: the next seat draws
    assert Action(EventType.DRAW, 1, parse_card("d9")) in legal_actions(st)


def test_a_forced_pao_is_the_only_claim_and_the_card_cannot_go_by() -> None:
    b = HandBuilder(["x4 x3", "", "x4*3"], stock="d9")
    st = _state(b.discard(0, "x4"))
    claims = [a for a in legal_actions(st) if a.type is not EventType.TI]
    assert claims == [Action(EventType.PAO, 2, parse_card("x4"))]


def test_the_drawer_must_wei_and_may_win_right_after() -> None:
    hand = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x3 x3"
    st = _state(HandBuilder(["d10", hand, ""], stock="x3", shown="d10", avoid="x1 x2")
                .discard(0, "d10").draw(1))
    assert st.phase is Phase.DRAWN
    x3 = parse_card("x3")
    assert set(legal_actions(st)) == {Action(EventType.WEI, 1, x3), Action(EventType.HU, 1, x3),
                                      Action(EventType.PASS, 1, x3)}


def test_apply_is_unchecked_and_notes_what_the_event_breaks() -> None:
    # seat 1 draws next; seat 2 draws instead: applied anyway, with its finding
    log = parse_log(HandBuilder(["x2 x5", "", ""], stock="d9").discard(0, "x5").draw(2).build())
    st = State(log)
    st.apply(log.events[0])
    assert action_of(log.events[1]) not in legal_actions(st)
    st.apply(log.events[1])
    assert [(f.seq, str(f.code)) for f in st.findings] == [(1, "out_of_turn")]
    assert st.table.stock_left == 18 and st.applied == 2
    assert not st.is_terminal and st.returns() == (0, 0, 0)


def test_a_win_ends_the_hand_with_its_returns() -> None:
    win = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x1 x2"
    st = _state(HandBuilder(["d10", win, "x3"], stock="x3", shown="d10")
                .discard(0, "d10").draw(1).hu(1, "x3"))
    assert st.is_terminal and legal_actions(st) == []
    r = st.returns()
    assert sum(r) == 0 and r[1] > 0


def test_the_audit_raises_when_actions_and_findings_disagree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    log = parse_log(HandBuilder(["x2 x5", "", ""], stock="d9").discard(0, "x5").draw(1).build())
    verdict = Audit(log, check_legality=True).run()  # they agree
    assert [str(f.code) for f in verdict.findings] == ["log_truncated"]
    monkeypatch.setattr("replay.audit.legal_actions", lambda state: [])
    with pytest.raises(Disagreement, match="event 0 discard seat 0: not legal but no finding"):
        Audit(log, check_legality=True).run()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_pinned_event_is_legal_exactly_when_it_breaks_no_rule(ruleset: str) -> None:
    # 2,000 hands a profile, clean and doctored: legal_actions and the findings agree
    for raw in corpus_lines(ruleset):
        Audit(parse_log(raw), check_legality=True).run()


def test_child_applies_to_a_copy_and_leaves_the_state_alone() -> None:
    st = _state(HandBuilder(["x2 x5", "", ""], stock="d9"))
    before = legal_actions(st)
    child = st.child(Action(EventType.DISCARD, 0, parse_card("x5")).event())
    assert child.phase is Phase.REVEALED and child.applied == 1
    assert st.phase is Phase.OPENING and st.applied == 0 and legal_actions(st) == before
    assert st.table.seats[0].hand[parse_card("x5")] == child.table.seats[0].hand[
        parse_card("x5")] + 1
    # the copy's handlers act on the copy
    child.apply(Action(EventType.DRAW, 1, parse_card("d9")).event())
    assert child.applied == 2 and st.table.stock_left == 19
