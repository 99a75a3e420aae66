"""Demo hands are dated in the past: hands sent after them show above them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.cli.main import main
from app.database import make_engine
from app.demo import demo_hands, in_the_past
from app.models import HandLog

from .backends import blank_database


def test_in_the_past_spaces_the_hands_before_now() -> None:
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    docs = list(in_the_past(demo_hands(4, 7, doctored_every=0), 4, now, timedelta(minutes=3)))
    starts = [datetime.fromisoformat(d["started_at"].replace("Z", "+00:00")) for d in docs]
    assert starts == [now - timedelta(minutes=3 * k) for k in (4, 3, 2, 1)]


def test_the_demo_command_stores_no_future_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with blank_database("sqlite", tmp_path) as url:
        monkeypatch.setenv("PAOHUZI_DATABASE_URL", url)
        assert main(["migrate"]) == 0
        before = datetime.now(UTC)
        assert main(["demo", "--games", "8"]) == 0
        engine = make_engine(url)
        try:
            with engine.connect() as conn:
                latest = conn.execute(select(func.max(HandLog.played_at))).scalar_one()
                count = conn.execute(select(func.count()).select_from(HandLog)).scalar_one()
        finally:
            engine.dispose()
        assert count >= 8
        if latest.tzinfo is None:
            latest = latest.replace(tzinfo=UTC)
        assert latest <= datetime.now(UTC) and latest >= before - timedelta(days=1)
