"""Bots for the self-play simulator: how a seat chooses, never what is legal.

What is legal at each moment is read from the real game state (``replay.state``)
(its phase, its claim window, its ``hu_after`` record, the table); a bot only
picks among the legal options. It plays like a person:

- it always makes the forced moves (the simulator does that for it);
- it usually takes a win and a good 吃/碰, and sometimes passes them, so that
  过张, 臭偎 and 臭胡 decisions occur;
- it discards sensibly: never a 坎 card, isolated cards first, a kind that is
  already 臭 for it before one it may still want to take.

A bot has a *persona* for the hand, which is what a person aims for: ``normal``,
``red`` (keeps red cards: 红胡/红乌), ``black`` (throws red cards: 乌胡/点胡) and
``pairs`` (keeps pairs and takes 碰, avoids 吃: 对对胡); in changde also ``big`` and
``small`` (keep one case: 十八大 / 十八小). The hand evaluation is a
memoised search over the packed hand (3 bits a kind), so a decision costs a few
dictionary look-ups once the table is warm.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ..cards import NUM_KINDS, RED, Card
from ..chi import ChiOption, chi_options
from ..groups import sentence_huxi

_IS_RED: Final[tuple[bool, ...]] = tuple(k in RED for k in range(NUM_KINDS))


class Persona(StrEnum):
    NORMAL = "normal"
    RED = "red"
    BLACK = "black"
    PAIRS = "pairs"
    BIG = "big"  # changde 大胡 (十八大)
    SMALL = "small"  # changde 小胡 (十八小)


#: the personas of the standard and hengshan simulations (their corpora are pinned).
PERSONAS: Final = (Persona.NORMAL, Persona.RED, Persona.BLACK, Persona.PAIRS)
#: changde players also chase 十八大 and 十八小 (RULES §11).
CHANGDE_PERSONAS: Final = tuple(Persona)


@dataclass(frozen=True, slots=True)
class Style:
    """How often a bot takes what it may take."""

    #: take a win it may take
    p_hu: float = 0.93
    #: take a 吃/碰 that improves the hand
    p_take: float = 0.86
    #: take one that does not
    p_take_bad: float = 0.03
    #: pick a discard among the top three instead of the best
    p_sloppy: float = 0.08
    #: skip the 免张 discard when the engine allows it
    p_mian: float = 0.8


# Values of the pieces of a hand (in "points" of the evaluation, not huxi).
_GROUP: Final = 12
_PAIR: Final = 5
_PAIR_PAIRS: Final = 9  # the pairs persona
_PART: Final = 3
_HUXI_W: Final = 2


_RUN_HUXI: Final[tuple[int, ...]] = tuple(
    sentence_huxi((k, k + 1, k + 2)) if k % 10 <= 7 else 0 for k in range(NUM_KINDS))
_EQS_HUXI: Final[tuple[int, ...]] = tuple(
    sentence_huxi((k, k + 5, k + 8)) if k % 10 == 1 else 0 for k in range(NUM_KINDS))
# One memo per (case, persona): a case holds 10 kinds of 0-2 non-坎 cards, 3**10 states.
_MEMO: Final[dict[tuple[bool, bool], dict[int, int]]] = {
    (big, pairs): {} for big in (False, True) for pairs in (False, True)}


def _pot(y: int, big: bool, pairs: bool) -> int:
    """Best value of the packed cards ``y`` of one case (10 kinds, 3 bits each) split into
    sentences, pairs, partial sentences (two cards one short) and loose cards."""
    memo = _MEMO[big, pairs]
    r = memo.get(y)
    if r is None:
        r = _pot_miss(y, 10 if big else 0, pairs, memo)
    return r


def _pot_miss(y: int, base: int, pairs: bool, memo: dict[int, int]) -> int:
    if not y:
        return 0
    r = ((y & -y).bit_length() - 1) // 3
    sh = 3 * r
    n = (y >> sh) & 7
    u = 1 << sh
    get = memo.get

    def sub(z: int) -> int:
        v = get(z)
        return _pot_miss(z, base, pairs, memo) if v is None else v

    best = sub(y - u)  # the card stays loose
    if n >= 2:
        v = (_PAIR_PAIRS if pairs else _PAIR) + sub(y - 2 * u)
        if v > best:
            best = v
    group = 6 if pairs else _GROUP
    part = 1 if pairs else _PART
    h1 = (y >> (sh + 3)) & 7 if r <= 8 else 0
    h2 = (y >> (sh + 6)) & 7 if r <= 7 else 0
    if h1 and h2:
        v = group + _HUXI_W * _RUN_HUXI[base + r] + sub(y - u - (u << 3) - (u << 6))
        if v > best:
            best = v
    if r == 1:
        h5 = (y >> (sh + 15)) & 7
        h8 = (y >> (sh + 24)) & 7
        if h5 and h8:
            v = group + _HUXI_W * _EQS_HUXI[base + r] + sub(y - u - (u << 15) - (u << 24))
            if v > best:
                best = v
        if h5:
            v = part + sub(y - u - (u << 15))
            if v > best:
                best = v
        if h8:
            v = part + sub(y - u - (u << 24))
            if v > best:
                best = v
    elif r == 6 and (y >> (sh + 9)) & 7:
        v = part + sub(y - u - (u << 9))
        if v > best:
            best = v
    if h1:
        v = part + sub(y - u - (u << 3))
        if v > best:
            best = v
    if h2:
        v = part + sub(y - u - (u << 6))
        if v > best:
            best = v
    memo[y] = best
    return best


def _split_value(small: list[int], big: list[int], pairs: bool, start: int = 0) -> int:
    """Both cases, with 绞 (mixed-case threes of a rank) tried rank by rank."""
    best = -1
    for r in range(start, 10):
        a, b = small[r], big[r]
        if a and b and a + b >= 3:
            group = 6 if pairs else _GROUP
            for da, db in ((2, 1), (1, 2)):
                if a >= da and b >= db:
                    small[r] -= da
                    big[r] -= db
                    v = group + _split_value(small, big, pairs, r + 1)
                    small[r] += da
                    big[r] += db
                    if v > best:
                        best = v
    ys = yb = 0
    bonus = 0
    for r in range(10):
        ys |= small[r] << (3 * r)
        yb |= big[r] << (3 * r)
        if small[r] == 1 and big[r] == 1:
            bonus += 1  # half a 绞
    v = _pot(ys, False, pairs) + _pot(yb, True, pairs) + bonus
    return v if v > best else best


def _kan_value(k: Card, pairs: bool) -> int:
    return (14 if pairs else _GROUP) + _HUXI_W * (6 if k >= 10 else 3)


def group_value(cards: Sequence[Card], pairs: bool = False) -> int:
    """A complete group laid on the table."""
    if len(set(cards)) == 1:
        return _kan_value(cards[0], pairs)
    if pairs:
        return 6 + _HUXI_W * sentence_huxi(cards)
    return _GROUP + _HUXI_W * sentence_huxi(cards)


class Bot:
    """One seat's choices for one hand."""

    def __init__(self, seat: int, rng: random.Random, persona: Persona,
                 style: Style | None = None) -> None:
        self.seat = seat
        self.rng = rng
        self.persona = persona
        self.style = style or Style()
        self.pairs = persona is Persona.PAIRS
        self.red_w = {Persona.RED: 3, Persona.BLACK: -6}.get(persona, 0)
        #: per big card: 十八大 wants them, 十八小 throws them
        self.big_w = {Persona.BIG: 3, Persona.SMALL: -3}.get(persona, 0)

    # ------------------------------------------------------------------ evaluation
    def value(self, hand: Sequence[int]) -> int:
        """How good a hand is for this bot (坎 fixed, the rest split at best)."""
        small = [0] * 10
        big = [0] * 10
        total = 0
        red = 0
        bigs = 0
        for k in range(NUM_KINDS):
            n = hand[k]
            if not n:
                continue
            if _IS_RED[k]:
                red += n
            if k >= 10:
                bigs += n
            if n >= 3:
                total += _kan_value(k, self.pairs) + (4 if n == 4 else 0)
            elif k < 10:
                small[k] = n
            else:
                big[k - 10] = n
        return total + _split_value(small, big, self.pairs) + self.red_w * red + \
            self.big_w * bigs

    def discard_options(self, hand: Sequence[int], chou: set[Card] | frozenset[Card]) -> \
            list[tuple[int, Card]]:
        """(value after, kind) for every kind it may throw, best first."""
        out: list[tuple[int, Card]] = []
        work = list(hand)
        for k in range(NUM_KINDS):
            if work[k] in (1, 2):
                work[k] -= 1
                v = self.value(work) * 4 + (2 if k in chou else 0)
                work[k] += 1
                out.append((v, k))
        out.sort(key=lambda item: (-item[0], item[1]))
        return out

    def best_after_discard(self, hand: Sequence[int]) -> int | None:
        """The hand's value after its best discard; ``None`` when taking the card would
        leave too little to play on (nothing but 坎 and a pair or two: a later forced 偎
        could leave the seat owing a discard with nothing it may throw)."""
        if sum(1 for n in hand if n in (1, 2)) < 3 or sum(1 for n in hand if n == 1) < 1:
            return None
        opts = self.discard_options(hand, frozenset())
        return opts[0][0] // 4 if opts else None

    # ------------------------------------------------------------------ decisions
    def want_hu(self) -> bool:
        return self.rng.random() < self.style.p_hu

    def want_mian(self) -> bool:
        return self.rng.random() < self.style.p_mian

    def choose_discard(self, hand: Sequence[int], chou: set[Card]) -> Card | None:
        """A kind to throw; ``None`` when the hand holds nothing but 坎."""
        opts = self.discard_options(hand, chou)
        if not opts:
            return None
        if len(opts) > 1 and self.rng.random() < self.style.p_sloppy:
            return opts[self.rng.randrange(min(3, len(opts)))][1]
        return opts[0][1]

    def _decide(self, gain: int) -> bool:
        if gain > 0:
            return self.rng.random() < self.style.p_take
        return self.rng.random() < self.style.p_take_bad

    def choose_peng(self, hand: Sequence[int], card: Card, owes_discard: bool) -> bool:
        after = list(hand)
        after[card] -= 2
        rest = self.best_after_discard(after) if owes_discard else self.value(after)
        if rest is None:
            return False  # only 坎 would be left to throw
        gain = rest + group_value((card,) * 3, self.pairs) - self.value(hand)
        if self.pairs:
            gain += 6
        return self._decide(gain)

    def choose_chi(self, hand: Sequence[int], card: Card, *, drawn_by_me: bool) -> \
            ChiOption | None:
        """The 吃 to make (with its 比), or ``None`` to pass."""
        options = chi_options(hand, card)
        if not options:
            return None
        base = self.value(hand)
        if drawn_by_me:
            # Not taking it costs nothing in hand; taking it must be worth a group.
            base += 0
        scored: list[tuple[int, int, ChiOption]] = []
        for i, opt in enumerate(options):
            after = list(hand)
            taken = list(opt.taken)
            taken.remove(card)
            for k in taken:
                after[k] -= 1
            for g in opt.bi:
                for k in g:
                    after[k] -= 1
            if min(after) < 0:
                continue
            rest = self.best_after_discard(after)
            if rest is None:
                continue
            v = rest + group_value(opt.taken, self.pairs) + sum(
                group_value(g, self.pairs) for g in opt.bi)
            scored.append((v, -i, opt))
        if not scored:
            return None
        scored.sort(key=lambda item: (-item[0], -item[1]))
        v, _, opt = scored[0]
        gain = v - base - (8 if self.pairs else 0)
        if len(scored) > 1 and any(o.bi for _, _, o in scored) and self.rng.random() < 0.25:
            # People like to show off a 比: sometimes the option with the most 比 groups.
            opt = max(scored, key=lambda item: (len(item[2].bi), item[0]))[2]
        return opt if self._decide(gain) else None


def personas_for(rng: random.Random, changde: bool = False) -> \
        tuple[Persona, Persona, Persona]:
    """Mostly normal players, some chasing a fan; ``changde``: the 名堂 personas too
    (big, small, red, black, pairs)."""
    personas: tuple[Persona, ...] = PERSONAS
    weights: tuple[float, ...] = (0.55, 0.17, 0.13, 0.15)
    if changde:
        personas, weights = CHANGDE_PERSONAS, (0.35, 0.13, 0.13, 0.13, 0.13, 0.13)
    return (
        rng.choices(personas, weights)[0],
        rng.choices(personas, weights)[0],
        rng.choices(personas, weights)[0],
    )
