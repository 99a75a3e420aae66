"""Groups (门子): their kinds, shapes and huxi (胡息), RULES §2."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from .cards import Card, is_big, rank


class GroupKind(StrEnum):
    """Every group a card can sit in. Table melds use the first seven."""

    TI = "ti"  # 提: four alike laid by their owner
    PAO = "pao"  # 跑: four alike made with a revealed card
    WEI = "wei"  # 偎: drawn card onto a pair, face down
    CHOU_WEI = "chou_wei"  # 臭偎: a 偎 after a passed 碰, one card shown
    PENG = "peng"  # 碰
    CHI = "chi"  # 吃: the taken sentence or 绞
    BI = "bi"  # 比: a sentence or 绞 laid with a 吃
    KAN = "kan"  # 坎: three alike in hand
    SENTENCE = "sentence"  # 一句话 in hand
    JIAO = "jiao"  # 绞 in hand
    PAIR = "pair"  # 将


# Members read on the hot path, bound once: on Python 3.11 reading a member off its
# enum class goes through ``EnumType.__getattr__``'s slot, about 8x a global read
# (docs/performance.md, third pass).
GK_TI: Final = GroupKind.TI
GK_PAO: Final = GroupKind.PAO
GK_WEI: Final = GroupKind.WEI
GK_CHOU_WEI: Final = GroupKind.CHOU_WEI
GK_PENG: Final = GroupKind.PENG
GK_CHI: Final = GroupKind.CHI
GK_BI: Final = GroupKind.BI
GK_KAN: Final = GroupKind.KAN
GK_SENTENCE: Final = GroupKind.SENTENCE
GK_JIAO: Final = GroupKind.JIAO
GK_PAIR: Final = GroupKind.PAIR


FOURS = frozenset({GroupKind.TI, GroupKind.PAO})
OF_ONE_KIND = frozenset(
    {GroupKind.TI, GroupKind.PAO, GroupKind.WEI, GroupKind.CHOU_WEI, GroupKind.PENG,
     GroupKind.KAN, GroupKind.PAIR}
)

# (small, big) huxi for groups whose value depends only on kind and case.
_ALIKE_HUXI: dict[GroupKind, tuple[int, int]] = {
    GroupKind.TI: (9, 12),
    GroupKind.PAO: (6, 9),
    GroupKind.WEI: (3, 6),
    GroupKind.CHOU_WEI: (3, 6),
    GroupKind.KAN: (3, 6),
    GroupKind.PENG: (1, 3),
    GroupKind.PAIR: (0, 0),
}


def is_sentence(a: Card, b: Card, c: Card) -> bool:
    """Three of one case in a run, or 2-7-10 of one case."""
    if is_big(a) != is_big(b) or is_big(a) != is_big(c):
        return False
    ranks = sorted((rank(a), rank(b), rank(c)))
    return ranks == [2, 7, 10] or (ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2])


def is_jiao(a: Card, b: Card, c: Card) -> bool:
    """Three of one rank in mixed case."""
    return (
        rank(a) == rank(b) == rank(c)
        and not (is_big(a) == is_big(b) == is_big(c))
    )


def is_chi_shape(cards: Sequence[Card]) -> bool:
    """A sentence or a 绞: what a 吃 or a 比 group must be."""
    return len(cards) == 3 and (is_sentence(*cards) or is_jiao(*cards))


def sentence_huxi(cards: Sequence[Card]) -> int:
    """一二三 or 二七十 of one case: 3 small, 6 big; any other sentence or 绞: 0."""
    if type(cards) is tuple:  # every 吃/比 meld and hand group: looked up once computed
        r = _SENTENCE_HUXI.get(cards)
        if r is None:
            r = _sentence_huxi(cards)
            if len(_SENTENCE_HUXI) < _SENTENCE_HUXI_LIMIT:
                _SENTENCE_HUXI[cards] = r
        return r
    return _sentence_huxi(cards)


def _sentence_huxi(cards: Sequence[Card]) -> int:
    if len(cards) != 3 or not is_sentence(*cards):
        return 0
    ranks = sorted(rank(c) for c in cards)
    if ranks in ([1, 2, 3], [2, 7, 10]):
        return 6 if is_big(cards[0]) else 3
    return 0


# ``sentence_huxi`` of card tuples seen (20 kinds: at most 8,000 three-card tuples)
_SENTENCE_HUXI: dict[tuple[Card, ...], int] = {}
_SENTENCE_HUXI_LIMIT: Final = 1 << 14


def clear_group_caches() -> None:
    """Forget the huxi looked up so far (``arrangements.clear_caches`` calls this)."""
    _SENTENCE_HUXI.clear()


def group_huxi(kind: GroupKind, cards: Sequence[Card]) -> int:
    alike = _ALIKE_HUXI.get(kind)
    if alike is not None:
        return alike[1] if is_big(cards[0]) else alike[0]
    return sentence_huxi(cards)
