"""The decision ledger: 臭牌, 过张, 臭偎 and 臭胡 (RULES §7).

Everything here is derived from the table as the engine replays it, never read
from the log. The engine records decisions when they happen and asks the
ledger whether a later 吃/碰/胡 is barred; each such check is recorded too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import NAMES, Card, card_name
from .profiles import STANDARD, Profile
from .verdict import Code, Decision, DecisionKind

# Members read on the hot path, bound once: on Python 3.11 reading a member off its
# enum class goes through ``EnumType.__getattr__``'s slot, about 8x a global read
# (docs/performance.md, third pass).
DK_CHECK: Final = DecisionKind.CHECK
DK_CHOU_HU: Final = DecisionKind.CHOU_HU
DK_CHOU_PAI: Final = DecisionKind.CHOU_PAI
DK_CHOU_WEI: Final = DecisionKind.CHOU_WEI
DK_GUO_ZHANG: Final = DecisionKind.GUO_ZHANG
DK_MIAN_ZHANG: Final = DecisionKind.MIAN_ZHANG


@dataclass(frozen=True, slots=True)
class ChouHu:
    kind: Card | None  # None: refused on the shown card before any event
    table_huxi: int
    seq: int | None


@dataclass(slots=True, init=False)
class SeatLedger:
    #: kind -> seq of the discard that made it 臭 (own discard)
    chou_pai: dict[Card, int]
    #: kind -> seq of the reveal the player passed (过张)
    guo_zhang: dict[Card, int]
    #: kinds on which the player passed a legal 碰 (a later 偎 of it is a 臭偎)
    passed_peng: set[Card]
    chou_hu: list[ChouHu]

    def __init__(self) -> None:
        # written out: three a hand (a dataclass's default factories cost twice this)
        self.chou_pai = {}
        self.guo_zhang = {}
        self.passed_peng = set()
        self.chou_hu = []

    def chou_kinds(self) -> set[Card]:
        return set(self.chou_pai) | set(self.guo_zhang)

    def bar_for_take(self, kind: Card) -> tuple[Code, int] | None:
        """Why a 吃/碰 of ``kind`` is barred: the earliest decision that made it 臭."""
        options = []
        if kind in self.chou_pai:
            options.append((self.chou_pai[kind], Code.CHOU_PAI))
        if kind in self.guo_zhang:
            options.append((self.guo_zhang[kind], Code.GUO_ZHANG))
        if not options:
            return None
        seq, code = min(options)
        return code, seq


class Ledger:
    def __init__(self, profile: Profile = STANDARD) -> None:
        # (a default profile so that a compiled build can copy a ledger: replay/native.py)
        self.profile = profile
        self.seats = [SeatLedger() for _ in range(3)]
        self.decisions: list[Decision] = []

    # -- recording
    def discarded(self, seat: int, kind: Card, seq: int) -> None:
        led = self.seats[seat]
        if kind not in led.chou_pai:
            led.chou_pai[kind] = seq
            name = NAMES[kind]
            self.decisions.append(Decision(
                seq, seat, DK_CHOU_PAI, name,
                f"seat {seat} discarded {name}: it may no longer 吃/碰 it"))

    def passed(self, seat: int, kind: Card, seq: int, could_peng: bool, what: str) -> None:
        led = self.seats[seat]
        if could_peng:
            led.passed_peng.add(kind)
        if kind not in led.guo_zhang:
            led.guo_zhang[kind] = seq
            name = NAMES[kind]
            self.decisions.append(Decision(
                seq, seat, DK_GUO_ZHANG, name,
                f"seat {seat} could {what} {name} and did not (过张): "
                f"it may no longer 吃/碰 it", (seq,)))

    def refused_win(self, seat: int, kind: Card | None, table_huxi: int, seq: int | None,
                    how: str) -> None:
        self.seats[seat].chou_hu.append(ChouHu(kind, table_huxi, seq))
        name = card_name(kind) if kind is not None else None
        if self.profile.chou_hu == "same_kind_unchanged":
            lock = f"no win on {name} while table huxi stays {table_huxi}"
        else:
            lock = (f"no win on any card until table huxi reaches "
                    f"{table_huxi + self.profile.chou_hu_unlock}")
        refs = (seq,) if seq is not None else ()
        self.decisions.append(Decision(
            seq, seat, DK_CHOU_HU, name,
            f"seat {seat} could win on {name or 'the shown card'} ({how}) and did not (臭胡): "
            f"{lock}", refs))

    def chou_wei(self, seat: int, kind: Card, seq: int) -> None:
        ref = self.seats[seat].guo_zhang.get(kind)
        self.decisions.append(Decision(
            seq, seat, DK_CHOU_WEI, card_name(kind),
            f"seat {seat} 偎'd {card_name(kind)} after passing a 碰 on it: 臭偎, one card shown",
            (ref,) if ref is not None else ()))

    def mian_zhang(self, seat: int, seq: int, refs: tuple[int, ...]) -> None:
        self.decisions.append(Decision(
            seq, seat, DK_MIAN_ZHANG, None,
            f"seat {seat} skipped its discard (免张) while ready: no more 吃/碰", refs))

    # -- checks
    def check_take(self, seat: int, kind: Card, seq: int, what: str) -> tuple[Code, int] | None:
        """A 吃/碰 of ``kind``: record the check; return (code, ref) when barred."""
        bar = self.seats[seat].bar_for_take(kind)
        name = NAMES[kind]
        if bar is None:
            self.decisions.append(Decision(
                seq, seat, DK_CHECK, name,
                f"ok: {what} {name} is not 臭 for seat {seat}", (), "ok"))
            return None
        code, ref = bar
        self.decisions.append(Decision(
            seq, seat, DK_CHECK, name,
            f"violation: {what} {name} is 臭 for seat {seat} by {code} at event {ref}; "
            f"a 臭 kind may not be 吃/碰", (ref,), "violation"))
        return bar

    def hu_bar(
        self, seat: int, kind: Card | None, table_huxi: int
    ) -> tuple[Code, str, tuple[int, ...]] | None:
        """Why a win on ``kind`` is barred now (no recording)."""
        led = self.seats[seat]
        if led.chou_hu:
            if self.profile.chou_hu == "same_kind_unchanged":
                latest = [r for r in led.chou_hu if r.kind == kind and kind is not None]
                if kind is not None and latest and latest[-1].table_huxi == table_huxi:
                    r = latest[-1]
                    return (Code.CHOU_HU,
                            f"refused a win on {card_name(kind)} at table huxi {r.table_huxi}, "
                            "unchanged since", _refs(r.seq))
            else:
                r = led.chou_hu[-1]
                need = r.table_huxi + self.profile.chou_hu_unlock
                if table_huxi < need:
                    return (Code.CHOU_HU,
                            f"refused a win at table huxi {r.table_huxi}; table huxi {table_huxi} "
                            f"has not reached {need}", _refs(r.seq))
        if (not self.profile.hu_on_passed_card and kind is not None
                and kind in led.guo_zhang):
            return (Code.GUO_ZHANG, f"{card_name(kind)} was passed (过张) at event "
                    f"{led.guo_zhang[kind]}; a passed kind may not be won on",
                    (led.guo_zhang[kind],))
        return None

    def check_hu(self, seat: int, kind: Card | None, table_huxi: int, seq: int) -> \
            tuple[Code, str, tuple[int, ...]] | None:
        bar = self.hu_bar(seat, kind, table_huxi)
        name = card_name(kind) if kind is not None else None
        if bar is None:
            self.decisions.append(Decision(
                seq, seat, DK_CHECK, name,
                f"ok: hu on {name}: no 臭胡 lock or barred kind for seat {seat}", (), "ok"))
        else:
            self.decisions.append(Decision(
                seq, seat, DK_CHECK, name, f"violation: hu on {name}: {bar[1]}", bar[2],
                "violation"))
        return bar


def _refs(seq: int | None) -> tuple[int, ...]:
    return (seq,) if seq is not None else ()
