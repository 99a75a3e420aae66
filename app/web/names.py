"""What people read: Chinese faces and names for card codes and rule codes.

The API and the verdicts keep the codes (``x3``, ``guo_zhang``); the pages show 三 and
过张, with the code as the tooltip (``<abbr title="guo_zhang">过张</abbr>``). The names
are those of ``shared/spec/GLOSSARY.md``.
"""

from __future__ import annotations

from markupsafe import Markup

from .replay import FANS

#: finding codes (LOG_FORMAT's list and this project's additions).
FINDING_NAMES: dict[str, str] = {
    "guo_zhang": "过张",
    "chou_pai": "臭牌",
    "chou_hu": "臭胡",
    "bi_missing": "烧比",
    "chi_not_allowed": "不可吃",
    "pao_missed": "走跑",
    "ti_missed": "烧提",
    "discard_not_owed": "八块后打牌",
    "discard_missing": "漏打",
    "out_of_turn": "不按次序",
    "card_not_held": "无此牌",
    "draw_mismatch": "摸牌不符",
    "deal_invalid": "发牌无效",
    "commitment_mismatch": "发牌承诺不符",
    "hu_invalid": "胡牌无效",
    "priority_violated": "抢先",
    "score_mismatch": "算分不符",
    "log_truncated": "记录不全",
    "wei_missed": "漏偎",
    "peng_not_allowed": "不可碰",
    "claim_invalid": "吃碰无效",
    "tian_hu_missed": "漏天胡",
    "event_after_end": "终局后行牌",
    "end_invalid": "终局无效",
    "match_invalid": "牌局无效",
    "drawn_before_mismatch": "黄番不符",
    "kan_split": "拆坎",
}

#: decision kinds of the ledger.
DECISION_NAMES: dict[str, str] = {
    "guo_zhang": "过张",
    "chou_pai": "臭牌",
    "chou_wei": "臭偎",
    "chou_hu": "臭胡",
    "mian_zhang": "免张",
    "check": "核对",
}

#: melds and groups.
MELD_NAMES: dict[str, str] = {
    "ti": "提",
    "pao": "跑",
    "wei": "偎",
    "chou_wei": "臭偎",
    "peng": "碰",
    "chi": "吃",
    "bi": "比",
    "kan": "坎",
    "sentence": "一句话",
    "jiao": "绞",
    "pair": "将",
    "rest": "散牌",  # a mandatory 天胡's cards that count nothing
}

#: fans and derived facts of a score.
FAN_NAMES: dict[str, str] = {
    **{fan.name: fan.chinese for fan in FANS},
    "zi_mo": "自摸",
    "tian_hu": "天胡",
    "fang_pao": "放炮",
}

#: events of the log.
EVENT_NAMES: dict[str, str] = {
    "draw": "摸",
    "discard": "打",
    "ti": "提",
    "wei": "偎",
    "pao": "跑",
    "peng": "碰",
    "chi": "吃",
    "pass": "过",
    "hu": "胡",
    "end": "终局",
}

#: the names the pages print for fans (the fan list of the rules core, with the facts).
FAN_LABELS = FAN_NAMES

ALL_NAMES: dict[str, str] = {
    **EVENT_NAMES,
    **MELD_NAMES,
    **FAN_NAMES,
    **DECISION_NAMES,
    **FINDING_NAMES,
}

#: event and meld words that messages use in English ("hu on x3"); never plain English
#: words such as "draw" or "pass".
MOVE_WORDS = ("hu", "chi", "peng", "pao", "wei", "ti", "bi", "kan")
#: the codes ``human`` names in a message (card names are added by ``replay.human``).
MESSAGE_CODES: tuple[str, ...] = (*FINDING_NAMES, *DECISION_NAMES, *FAN_NAMES, *MOVE_WORDS)


def cn(code: object) -> Markup:
    """A code as its Chinese name, the code as tooltip; unknown codes as they are."""
    text = str(code)
    name = ALL_NAMES.get(text)
    if name is None:
        return Markup("<code>{}</code>").format(text)
    return Markup('<abbr class="cn" title="{}">{}</abbr>').format(text, name)
