"""The audit: walks a log over the game state and writes the verdict.

``verify(log)`` checks the deal (§1, the commitment), applies each event to a
``State`` (which notes every rule the event breaks, ``replay.state``), ends the
hand where the log ends, compares the claimed result with the expected one
(``settlement``) and returns the ``Verdict``: the findings, the 臭牌/过张/臭胡
decisions of the ledger and the score. ``Audit(log, on_step=hook)`` calls
``hook(seq, state)`` after the deal (``-1``) and after each event (the replay
pages draw these states, ``replay.steps``); ``Audit(log, watch=w)`` calls
``w.before(seq, event, state)`` and ``w.after(seq, event, state)`` around each event
applied (the fair-play features are read in the same walk, ``replay.fairplay``).

With ``check_legality=True`` the audit also compares each event with
``replay.actions.legal_actions`` before applying it and raises ``Disagreement``
when the state notes a finding at a legal event or none at an illegal one (a
``pass`` and an abandoned end are never checked: they break no rule): the
two views of the rules (what is legal, what an event breaks) must agree. The
tests run every pinned hand that way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Final, Protocol

from . import version
from .actions import action_of, legal_actions
from .cards import NUM_KINDS, card_name, counts_of
from .logformat import log_sha256
from .model import EndReason, Event, EventType, Log
from .settlement import compare_result
from .state import Impossible, State
from .verdict import Code, Finding, Severity, Status, Verdict

StepHook = Callable[[int, State], None]

_FOUR_OF_EACH: Final = [4] * NUM_KINDS


class Watch(Protocol):
    def before(self, seq: int, event: Event, state: State) -> None: ...
    def after(self, seq: int, event: Event, state: State) -> None: ...


class Disagreement(AssertionError):
    """``legal_actions`` and the state's findings disagree about an event."""


class Audit:
    def __init__(self, log: Log, on_step: StepHook | None = None, *,
                 check_legality: bool = False, watch: Watch | None = None) -> None:
        self.log = log
        self.state = State(log)
        self.on_step = on_step
        self.check_legality = check_legality
        self.watch = watch

    def run(self) -> Verdict:
        st, hook, watch = self.state, self.on_step, self.watch
        try:
            self.check_deal()
        except Impossible:
            if hook is not None:
                hook(-1, st)
            return self.verdict()
        if hook is not None:
            hook(-1, st)
        i = -1
        try:
            for i, e in enumerate(self.log.events):
                if watch is not None:
                    watch.before(i, e, st)
                if self.check_legality:
                    self.apply_checked(i)
                else:
                    st.apply(e)
                if watch is not None:
                    watch.after(i, e, st)
                if hook is not None:
                    hook(i, st)
            st.finish()
        except Impossible:
            if hook is not None:
                hook(i, st)
        return self.verdict()

    def apply_checked(self, i: int) -> None:
        st = self.state
        e = self.log.events[i]
        if e.type is EventType.PASS or e.reason is EndReason.ABANDONED:
            st.apply(e)  # a pass changes nothing; a hand may always be abandoned
            return
        legal = action_of(e) in legal_actions(st)
        before = len(st.findings)
        try:
            st.apply(e)
        finally:
            noted = [f for f in st.findings[before:] if f.seq == i]
            if legal == bool(noted):
                what = "legal but noted " + ", ".join(str(f.code) for f in noted) if legal \
                    else "not legal but no finding"
                raise Disagreement(f"{self.log.game_id} event {i} {e.type} seat {e.seat}: "
                                   f"{what}")

    def check_deal(self) -> None:
        st = self.state
        deal, dealer = self.log.deal, self.log.dealer
        problems = []
        for s in range(3):
            want = 21 if s == dealer else 20
            if len(deal.hands[s]) != want:
                problems.append(f"seat {s} was dealt {len(deal.hands[s])} cards, not {want}")
        if len(deal.stock) != 19:
            problems.append(f"the stock has {len(deal.stock)} cards, not 19")
        if deal.shown not in deal.hands[dealer]:
            problems.append(f"the shown card {card_name(deal.shown)} is not in the dealer's hand")
        # the stock and the dealt hands (counted by the state), kind by kind
        total = list(map(sum, zip(counts_of(deal.stock), *st.dealt, strict=True)))
        if total != _FOUR_OF_EACH:
            wrong = [f"{card_name(k)}×{n}" for k, n in enumerate(total) if n != 4]
            problems.append("every kind must appear 4 times: " + ", ".join(wrong))
        if deal.commitment is not None:
            text = deal.commitment.salt + ":" + "|".join(
                [",".join(h) for h in deal.hand_names] + [",".join(deal.stock_names)])
            if hashlib.sha256(text.encode("utf-8")).hexdigest() != deal.commitment.sha256:
                st.find(None, None, Code.COMMITMENT_MISMATCH,
                        "the deal does not match its published SHA-256 commitment")
        if problems:
            st.stop(None, None, Code.DEAL_INVALID, "; ".join(problems))

    def verdict(self) -> Verdict:
        st = self.state
        findings = list(st.findings)
        claimed = self.log.result
        mismatches: list[str] = []
        expected = None if st.expected is None else st.expected.to_json()
        if claimed is not None and expected is not None and not st.invalid:
            mismatches, message = compare_result(claimed, expected)
            if mismatches:
                findings.append(Finding(None, None, Code.SCORE_MISMATCH, Severity.VIOLATION,
                                        message))
        if any(f.severity is Severity.INVALID for f in findings):
            status = Status.INVALID
        elif findings:
            status = Status.VIOLATIONS
        else:
            status = Status.CLEAN
        return Verdict(
            game_id=self.log.game_id,
            ruleset=self.log.ruleset,
            engine=version.ENGINE_VERSION,
            log_sha256=self.log.sha256 or log_sha256(self.log.raw),
            status=status,
            findings=findings,
            decisions=list(st.ledger.decisions),
            score={"expected": expected,
                   "claimed": claimed, "mismatches": mismatches},
        )


def verify(log: Log) -> Verdict:
    """Re-execute ``log`` and return its verdict."""
    return Audit(log).run()


def verify_bytes(raw: bytes | str) -> Verdict:
    """Parse (raising ``LogFormatError``) and verify."""
    from .logformat import parse_log

    return verify(parse_log(raw))
