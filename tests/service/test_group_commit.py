"""The group commit of the single-log ingests (``app.group_commit``), on SQLite and on
PostgreSQL: the works
waiting at one moment share one transaction, each under its own savepoint; one work's
failure undoes only its own rows; a failed commit stores none of them; the reads every
ingest repeats are made once a group; staged works (the single POSTs) are prepared one
by one and written together, and written one by one when that fails."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text
from sqlalchemy.orm import Session

import app.games.service as service
from app.auth.scopes import Scope
from app.auth.service import authenticate
from app.database import Database, shared_read, transaction
from app.errors import Conflict, InvalidLog
from app.games.service import Prepared, Result, Source, StoreSingles, parse, prepare
from app.group_commit import GroupCommit, Staged
from app.main import create_app
from app.settings import Settings

from .conftest import key_headers, row_counts
from .logs import log_bytes


@pytest.fixture
def group_db(committed_db: Database) -> Database:
    """A database of its own that commits (SQLite: the event loop runs the groups;
    PostgreSQL: a worker thread)."""
    return committed_db


@pytest.fixture
def commits(group_db: Database) -> Iterator[list[int]]:
    """One entry per COMMIT the engine makes."""
    seen: list[int] = []

    def count(_conn: Any) -> None:
        seen.append(1)

    event.listen(group_db.engine, "commit", count)
    yield seen
    event.remove(group_db.engine, "commit", count)


def _staged(game_id: str, key_id: int | None = None, **kw: Any) -> Staged[Any, Result]:
    """A single POST's work as the endpoint makes it (without the key check)."""
    raw = log_bytes(game_id, **kw)

    def checked(_session: Session) -> tuple[int | None, Prepared]:
        return key_id, prepare(parse(raw, 64), True)

    return Staged(checked, StoreSingles(Source.API))


@pytest.fixture
def store_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The game_ids of each ``service.store`` call."""
    calls: list[list[str]] = []
    original = service.store

    def recording(session: Session, items: Any, **kw: Any) -> Any:
        calls.append([i.parsed.game_id for i in items])
        return original(session, items, **kw)

    monkeypatch.setattr(service, "store", recording)
    return calls


def _submit_all(group: GroupCommit, works: list[Staged[Any, Any]]) -> list[Any]:
    """Submit the works at one moment; each one's result or exception."""

    async def main() -> list[Any]:
        return await asyncio.gather(*(group.submit(w) for w in works), return_exceptions=True)

    # on a thread of its own: a browser test's Playwright (sync API) keeps an event loop
    # running on this worker's main thread while its session lasts
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def test_works_waiting_together_share_one_commit(group_db: Database, commits: list[int]) -> None:
    group = GroupCommit(group_db)
    answers = _submit_all(group, [_staged(f"g-{i}") for i in range(5)])
    assert [a.game_id for a in answers] == [f"g-{i}" for i in range(5)]
    assert [str(a.outcome) for a in answers] == ["created"] * 5
    assert all(a.verdict_json for a in answers)
    assert len(commits) == 1
    assert (group.groups, group.requests) == (1, 5)
    counts = row_counts(group_db)
    assert counts["hand_logs"] == counts["verdicts"] == 5


def test_a_failing_work_undoes_only_its_own_rows(group_db: Database) -> None:
    """The third work stores its log, then fails: its log is gone, the others' stay, and
    it gets its own exception. A second post of the same game in the group is a
    duplicate; a different log under that game_id a conflict."""

    class Boom(Exception):
        pass

    def stores_then_fails(session: Session, items: list[Any]) -> list[Any]:
        StoreSingles(Source.API)(session, items)
        assert session.execute(text("SELECT count(*) FROM hand_logs WHERE game_id = 'g-boom'"))\
            .scalar() == 1
        raise Boom("after its rows")

    group = GroupCommit(group_db)
    answers = _submit_all(
        group,
        [
            _staged("g-a"),
            _staged("g-b"),
            Staged(_staged("g-boom").prepare, stores_then_fails),
            _staged("g-a"),
            _staged("g-b", seed=1),
        ],
    )
    assert str(answers[0].outcome) == "created" and str(answers[1].outcome) == "created"
    assert isinstance(answers[2], Boom)
    assert str(answers[3].outcome) == "duplicate"
    assert isinstance(answers[4], Conflict)
    with group_db.read() as session:
        stored = session.execute(text("SELECT game_id FROM hand_logs ORDER BY id")).scalars()
        assert list(stored) == ["g-a", "g-b"]
    assert row_counts(group_db)["verdicts"] == 2
    assert group.groups == 1


def test_a_savepoint_that_cannot_be_undone_fails_the_whole_group(group_db: Database) -> None:
    """A work fails after its savepoint is gone (released here by hand, as a broken
    ``ROLLBACK TO`` would leave it): its rows cannot be told from the others', so the
    group stores nothing and every work gets the error."""

    def releases_then_fails(session: Session, items: list[Any]) -> list[Any]:
        StoreSingles(Source.API)(session, items)
        savepoint = session.connection().get_nested_transaction()
        assert savepoint is not None
        session.execute(text(f"RELEASE SAVEPOINT {savepoint._savepoint}"))
        raise RuntimeError("after its savepoint was released")

    group = GroupCommit(group_db)
    broken = Staged(_staged("s-broken").prepare, releases_then_fails)
    answers = _submit_all(group, [_staged("s-0"), broken, _staged("s-2")])
    assert all(isinstance(a, Exception) for a in answers), answers
    assert row_counts(group_db)["hand_logs"] == 0
    assert group.groups == 0


def test_staged_works_are_written_by_one_store(
    group_db: Database, commits: list[int], store_calls: list[list[str]]
) -> None:
    """Five single POSTs, a bad log among them and a second post of one game: the four
    good logs in one ``store`` call, in arrival order; the repeat a duplicate, a
    different log under a stored game_id a conflict, the bad one its 422; one commit."""
    group = GroupCommit(group_db)
    bad: Staged[Any, Result] = Staged(
        lambda _s: (None, prepare(parse(b'{"format": "x"}', 64), True)), StoreSingles(Source.API)
    )
    answers = _submit_all(
        group,
        [_staged("w-0"), _staged("w-1"), bad, _staged("w-0"), _staged("w-1", seed=1),
         _staged("w-2")],
    )
    assert [str(a.outcome) for a in (answers[0], answers[1], answers[3], answers[5])] == [
        "created", "created", "duplicate", "created"]
    assert isinstance(answers[2], InvalidLog)
    assert isinstance(answers[4], Conflict)
    assert store_calls == [["w-0", "w-1", "w-0", "w-1", "w-2"]]
    assert len(commits) == 1
    with group_db.read() as session:
        stored = session.execute(text("SELECT game_id FROM hand_logs ORDER BY id")).scalars()
        assert list(stored) == ["w-0", "w-1", "w-2"]


def test_staged_works_of_different_keys_keep_their_order_and_keys(
    group_db: Database, store_calls: list[list[str]]
) -> None:
    key_a = int(_key_id(group_db, "a"))
    key_b = int(_key_id(group_db, "b"))
    group = GroupCommit(group_db)
    answers = _submit_all(group, [_staged("k-0", key_a), _staged("k-1", key_a),
                                  _staged("k-2", key_b), _staged("k-0", key_b),
                                  _staged("k-3", key_a)])
    assert [str(a.outcome) for a in answers] == [
        "created", "created", "created", "duplicate", "created"]
    assert store_calls == [["k-0", "k-1"], ["k-2", "k-0"], ["k-3"]]  # runs of one key
    with group_db.read() as session:
        owners = dict(session.execute(text("SELECT game_id, api_key_id FROM hand_logs")).all())
    assert owners == {"k-0": key_a, "k-1": key_a, "k-2": key_b, "k-3": key_a}


def _key_id(db: Database, name: str) -> int:
    secret = key_headers(db, name=name)["X-API-Key"]
    with transaction(db.read) as session:
        return authenticate(session, secret, Scope.INGEST).key_id


class _Poison(Exception):
    pass


def _write_probe(session: Session, values: list[str]) -> list[str | Exception]:
    """Writes every value to ``probe``; raises if one is "poison" (after writing the
    others): the whole batch is then written again one by one."""
    for v in values:
        session.execute(text("INSERT INTO probe (v) VALUES (:v)"), {"v": v})
    if "poison" in values:
        raise _Poison("a bad item in the batch")
    return [v.upper() for v in values]


def test_a_failing_batch_write_is_written_again_one_by_one(
    group_db: Database, commits: list[int]
) -> None:
    with transaction(group_db.write) as session:
        session.execute(text("CREATE TABLE probe (v TEXT)"))
    calls: list[int] = []

    def write(session: Session, values: list[str]) -> list[str | Exception]:
        calls.append(len(values))
        return _write_probe(session, values)

    def item(v: str) -> Staged[str, str]:
        return Staged(lambda _s: v, write)

    group = GroupCommit(group_db)
    answers = _submit_all(group, [item("a"), item("poison"), item("b")])
    assert answers[0] == "A" and answers[2] == "B"
    assert isinstance(answers[1], _Poison)
    assert calls == [3, 1, 1, 1]  # together, then each alone
    with group_db.read() as session:
        assert sorted(session.execute(text("SELECT v FROM probe")).scalars()) == ["a", "b"]
    assert len(commits) == 2  # the table, then the group


def test_a_failed_commit_stores_nothing_and_fails_every_work(group_db: Database) -> None:
    class DiskGone(Exception):
        pass

    def refuse(_session: Session) -> None:
        raise DiskGone("the commit failed")

    group = GroupCommit(group_db)
    event.listen(Session, "before_commit", refuse)
    try:
        answers = _submit_all(group, [_staged(f"c-{i}") for i in range(3)])
    finally:
        event.remove(Session, "before_commit", refuse)
    assert all(isinstance(a, DiskGone) for a in answers)
    assert row_counts(group_db)["hand_logs"] == 0
    # and the next group commits as usual
    assert str(_submit_all(group, [_staged("c-after")])[0].outcome) == "created"
    assert row_counts(group_db)["hand_logs"] == 1


def test_the_key_is_read_once_a_group(group_db: Database) -> None:
    secret = key_headers(group_db)["X-API-Key"]
    reads: list[str] = []

    def watch(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "FROM api_keys" in statement:
            reads.append(statement)

    def keyed(session: Session) -> int:
        return authenticate(session, secret, Scope.INGEST).key_id

    def written(_session: Session, ids: list[int]) -> list[int]:
        return ids

    event.listen(group_db.engine, "before_cursor_execute", watch)
    try:
        group = GroupCommit(group_db)
        ids = _submit_all(group, [Staged(keyed, written)] * 4)
        in_group = len(reads)
        with transaction(group_db.write) as session:  # elsewhere: every time
            keyed(session)
            keyed(session)
    finally:
        event.remove(group_db.engine, "before_cursor_execute", watch)
    assert len(set(ids)) == 1
    assert in_group == 1
    assert len(reads) == 3


def test_shared_read_outside_a_group_reads_every_time(group_db: Database) -> None:
    calls: list[int] = []
    with transaction(group_db.read) as session:
        assert shared_read(session, "k", lambda: calls.append(1) or len(calls)) == 1
        assert shared_read(session, "k", lambda: calls.append(1) or len(calls)) == 2


def _group_sizes(metrics: str) -> tuple[float, float]:
    """``paohuzi_ingest_group_size``'s count and sum in a /metrics page."""
    assert "# TYPE paohuzi_ingest_group_size histogram" in metrics
    found = dict.fromkeys(("count", "sum"), 0.0)
    for line in metrics.splitlines():
        for what in found:
            if line.startswith(f"paohuzi_ingest_group_size_{what} "):
                found[what] = float(line.split()[1])
    return found["count"], found["sum"]


def test_concurrent_posts_are_each_answered(group_db: Database, settings: Settings) -> None:
    """Over HTTP, posts sent at once are each stored and answered with their own
    log's result, all through the application's group commit, whose groups /metrics
    counts (``paohuzi_ingest_group_size``)."""
    headers = key_headers(group_db)
    ops = key_headers(group_db, "operate", name="ops")
    app = create_app(settings, db=group_db)
    with TestClient(app) as client:

        def one(i: int) -> int:
            answer = client.post("/api/v1/games", content=log_bytes(f"h-{i}"), headers=headers)
            assert answer.json()["game_id"] == f"h-{i}"
            return answer.status_code

        before = _group_sizes(client.get("/api/v1/metrics", headers=ops).text)
        with ThreadPoolExecutor(8) as pool:  # eight posts at once
            codes = list(pool.map(one, range(8)))
        after = _group_sizes(client.get("/api/v1/metrics", headers=ops).text)
    assert codes == [201] * 8
    assert after[0] - before[0] == app.state.group_commit.groups  # groups committed
    assert after[1] - before[1] == 8  # requests in them
    assert row_counts(group_db)["verdicts"] == 8
    group = app.state.group_commit
    assert group.requests == 8
