"""A population of persistent players over many hands, with planted cheats.

``population(players, hands, seed, ruleset, plant)`` seats persistent players
(``p-001`` …) at random tables, hand after hand, and plays each hand with the
simulator's bots (``replay.tools.simulate``, ``replay.tools.bots``) on the real
game state. Players differ in how often they play (a log-normal activity weight)
and in skill (a ``Style`` per player: ``expert``, ``good``, ``average``, ``weak``).
The ground truth is written beside the corpus (``Population.labels``):

- a colluding **pair** knows both its hands. When it discards it prefers a card its
  partner can 吃/碰/胡 (with ``hu_on_discard``, hengshan, it 放炮s to the partner
  whenever it can) and avoids a card the third seat can claim, paying for it with
  hand value; it lets a 碰 or its own 吃 go when the partner can 吃 the card (the
  claim would block the partner). When one of the pair is seated the other joins
  the table with probability ``JOIN``.
- an all-seeing player (**seer**) knows every hand and the stock: it plays like the
  honest bots but, among its discards, avoids the cards an opponent could claim.
- everyone else is honest, with the style of their skill tier.

The cheats only use the public state API (``replay.fairplay.reach.reach`` opens the
claim window the rules would open for a card). Deterministic: the same arguments
give the same bytes.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..cards import Card, next_seat, prev_seat
from ..fairplay.reach import ANY, CHOSEN, HU, reach
from ..model import EventType, Log
from ..profiles import PROFILES
from ..state import Phase
from .bots import Bot, Style
from .simulate import (
    EPOCH_S,
    Driver,
    Options,
    Stuck,
    dumps,
    hand_rng,
    play_hand,
    play_robustly,
)

#: chance that the partner of a seated colluder joins the table
JOIN: Final = 0.5
#: value bonuses of a cheat's discard choice (in the bots' ``discard_options`` units)
FEED_WIN: Final = 10_000
FEED_CLAIM: Final = 36
AVOID_THIRD: Final = 60
SEER_AVOID: Final = 60

STYLES: Final[dict[str, Style]] = {
    "expert": Style(p_hu=1.0, p_take=0.95, p_take_bad=0.0, p_sloppy=0.0),
    "good": Style(p_hu=0.97, p_take=0.9, p_take_bad=0.02, p_sloppy=0.04),
    "average": Style(),
    "weak": Style(p_hu=0.85, p_take=0.7, p_take_bad=0.06, p_sloppy=0.25),
}
TIERS: Final = tuple(STYLES)


@dataclass(frozen=True, slots=True)
class Plant:
    pairs: int = 0
    seers: int = 0

    @staticmethod
    def parse(text: str) -> Plant:
        """``pairs=K,seers=M`` (either may be left out; empty: no cheats)."""
        values = {"pairs": 0, "seers": 0}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, val = part.partition("=")
            if key not in values or not val.isdigit():
                raise ValueError(f"--plant: expected pairs=K,seers=M, got {text!r}")
            values[key] = int(val)
        return Plant(values["pairs"], values["seers"])


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    id: str
    tier: str
    activity: float
    role: str  # "honest", "pair", "seer"


@dataclass(slots=True)
class Population:
    players: list[PlayerSpec]
    pairs: list[tuple[str, str]]
    seers: list[str]
    partner: dict[str, str] = field(default_factory=dict)

    @property
    def labels(self) -> dict[str, Any]:
        return {"pairs": [list(p) for p in self.pairs], "seers": list(self.seers)}

    def roster(self) -> dict[str, Any]:
        return {"players": [{"id": p.id, "tier": p.tier, "activity": round(p.activity, 6),
                             "role": p.role} for p in self.players]}


def make_population(players: int, seed: int, plant: Plant) -> Population:
    if players < 3 + plant.pairs * 2 + plant.seers:
        raise ValueError("too few players for the planted cheats and an honest table")
    rng = random.Random(f"paohuzi-pop/{seed}/players")
    ids = [f"p-{i:03d}" for i in range(1, players + 1)]
    cheats = rng.sample(ids, plant.pairs * 2 + plant.seers)
    pairs = [(min(a, b), max(a, b)) for a, b in zip(cheats[0:plant.pairs * 2:2],
                                                     cheats[1:plant.pairs * 2:2], strict=True)]
    seers = sorted(cheats[plant.pairs * 2:])
    roles = {p: "pair" for pr in pairs for p in pr} | {s: "seer" for s in seers}
    specs: list[PlayerSpec] = []
    for i, pid in enumerate(ids):
        role = roles.get(pid, "honest")
        # the honest tiers in turn (so that every tier is present); cheats play "good"
        tier = TIERS[i % len(TIERS)] if role == "honest" else "good"
        specs.append(PlayerSpec(pid, tier, math.exp(rng.gauss(0.0, 0.6)), role))
    pop = Population(specs, sorted(pairs), seers)
    for a, b in pairs:
        pop.partner[a] = b
        pop.partner[b] = a
    return pop


def seat_table(pop: Population, rng: random.Random) -> list[str]:
    """Three players by activity; a seated colluder's partner joins with chance ``JOIN``."""
    ids = [p.id for p in pop.players]
    weights = [p.activity for p in pop.players]
    table: list[str] = []
    while len(table) < 3:
        pid = rng.choices(ids, weights)[0]
        if pid not in table:
            table.append(pid)
    for pid in list(table):
        mate = pop.partner.get(pid)
        if mate is not None and mate not in table and rng.random() < JOIN:
            others = [i for i, q in enumerate(table) if q != pid and pop.partner.get(q) != pid]
            table[rng.choice(others)] = mate
    rng.shuffle(table)
    return table


class CheatDriver(Driver):
    """The simulator's driver with the planted cheats' choices (see the module doc)."""

    def __init__(self, log: Log, rng: random.Random, bots: list[Bot], options: Options,
                 *, partner: dict[int, int], seers: frozenset[int]) -> None:
        super().__init__(log, rng, bots, options)
        self.partner = partner
        self.seers = seers

    def yields(self, seat: int, others: Sequence[int]) -> bool:
        mate = self.partner.get(seat)
        return mate is not None and mate in others

    def discard_turn(self, seat: int) -> None:
        if seat not in self.partner and seat not in self.seers:
            super().discard_turn(seat)
            return
        rep = self.rep
        if rep.phase is Phase.DISCARD and rep.optional_discard and rep.table.stock_left \
                and self.bots[seat].want_mian():
            self.draw_turn(next_seat(seat))
            return
        opts = self.bots[seat].discard_options(rep.table.seats[seat].hand, self.chou(seat))
        if not opts:
            raise Stuck(f"seat {seat} holds only 坎 and owes a discard")
        self.emit(EventType.DISCARD, seat, self.cheat_discard(seat, opts))

    def cheat_discard(self, seat: int, opts: list[tuple[int, Card]]) -> Card:
        mate = self.partner.get(seat)
        best: tuple[int, int, Card] | None = None
        for i, (value, k) in enumerate(opts):
            masks = reach(self.rep, seat, k)
            score = value
            if mate is not None:
                third = prev_seat(seat) if mate == next_seat(seat) else next_seat(seat)
                if masks[mate] & HU:
                    score += FEED_WIN
                elif masks[mate] & CHOSEN:
                    score += FEED_CLAIM
                if masks[third] & ANY:
                    score -= AVOID_THIRD
            else:
                if (masks[next_seat(seat)] | masks[prev_seat(seat)]) & ANY:
                    score -= SEER_AVOID
            if best is None or (score, -i) > best[:2]:
                best = (score, -i, k)
        assert best is not None
        return best[2]


def population(players: int, hands: int, seed: int, ruleset: str,
               plant: Plant) -> tuple[Population, Iterator[dict[str, Any]]]:
    """The population and its hands (log documents, in time order)."""
    if ruleset not in PROFILES:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    pop = make_population(players, seed, plant)
    return pop, _hands(pop, hands, seed, ruleset)


def _hands(pop: Population, hands: int, seed: int, ruleset: str) -> Iterator[dict[str, Any]]:
    profile = PROFILES[ruleset]
    specs = {p.id: p for p in pop.players}
    seer_ids = set(pop.seers)
    trng = random.Random(f"paohuzi-pop/{seed}/{ruleset}/tables")
    for index in range(hands):
        table = seat_table(pop, trng)
        game_id = f"pop-{ruleset}-{seed}-{index:06d}"
        started = EPOCH_S - 86400 * 60 + index * 37
        partner = {s: table.index(pop.partner[p]) for s, p in enumerate(table)
                   if p in pop.partner and pop.partner[p] in table}
        seers = frozenset(s for s, p in enumerate(table) if p in seer_ids)
        styles = [STYLES[specs[p].tier] for p in table]

        def driver(log: Log, rng: random.Random, bots: list[Bot], options: Options,
                   partner: dict[int, int] = partner, seers: frozenset[int] = seers) -> Driver:
            return CheatDriver(log, rng, bots, options, partner=partner, seers=seers)

        def make(attempt: int, index: int = index, game_id: str = game_id,
                 table: list[str] = table, styles: list[Style] = styles,
                 started: int = started) -> dict[str, Any]:
            rng = hand_rng(seed, f"pop-{ruleset}", index, attempt)
            return play_hand(rng, profile, ruleset, rng.randrange(3), game_id, table,
                             allow_abandon=False, styles=styles, make_driver=driver,
                             started=started)

        yield play_robustly(make, game_id)


def write_population(out: Path, players: int, hands: int, seed: int, ruleset: str,
                     plant: Plant) -> int:
    """``out/hands.ndjson`` (one log a line), ``out/labels.json`` (the planted cheats) and
    ``out/players.json`` (every player's tier, activity and role); the hands written."""
    pop, docs = population(players, hands, seed, ruleset, plant)
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    with (out / "hands.ndjson").open("w", encoding="utf-8") as f:
        for doc in docs:
            f.write(dumps(doc) + "\n")
            n += 1
    (out / "labels.json").write_text(json.dumps(pop.labels, indent=1) + "\n", encoding="utf-8")
    (out / "players.json").write_text(json.dumps(pop.roster(), indent=1) + "\n",
                                      encoding="utf-8")
    return n
