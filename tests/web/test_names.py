"""Chinese faces and names for what people read; codes kept as tooltips; text escaped."""

from __future__ import annotations

from app.web.hand_view import human
from app.web.names import DECISION_NAMES, FINDING_NAMES, cn
from replay.verdict import Code, DecisionKind


def test_every_code_has_a_chinese_name() -> None:
    assert {c.value for c in Code} <= set(FINDING_NAMES)
    assert {k.value for k in DecisionKind} <= set(DECISION_NAMES)
    assert (FINDING_NAMES["guo_zhang"], FINDING_NAMES["chou_pai"], FINDING_NAMES["chou_hu"]) == (
        "过张", "臭牌", "臭胡")


def test_messages_read_in_chinese_with_the_codes_as_tooltips() -> None:
    out = str(human("seat 1 may not 吃 x3: guo_zhang since event 0; bi with d10"))
    assert out == ('seat 1 may not 吃 <abbr class="cn" title="x3">三</abbr>: '
                   '<abbr class="cn" title="guo_zhang">过张</abbr> since event 0; '
                   '<abbr class="cn" title="bi">比</abbr> with '
                   '<abbr class="cn" title="d10">拾</abbr>')
    # words that merely contain a code stay as they are; markup is escaped
    assert str(human("red_x3 x11 <b>chou_pai</b>")) == (
        'red_x3 x11 &lt;b&gt;<abbr class="cn" title="chou_pai">臭牌</abbr>&lt;/b&gt;')
    assert str(cn("score_mismatch")) == '<abbr class="cn" title="score_mismatch">算分不符</abbr>'
    assert str(cn("<x>")) == "<code>&lt;x&gt;</code>"
