"""Rows of one table at once on the session's own connection (so inside its
transaction), below SQLAlchemy's per-statement work (which costs more than the inserts
on the ingest path): PostgreSQL ``COPY … FROM STDIN`` for many rows and one multi-row
``VALUES`` for a few, SQLite the driver's ``executemany`` (its loop is C). Values go
through each column type's own bind processor, so they are stored exactly as an ORM
insert stores them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, Dialect, Table
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ..database import array_element

#: fewer rows than this go in one multi-row ``VALUES`` on PostgreSQL (COPY's set-up is
#: not free).
COPY_FROM = 50
#: rows of one multi-row ``INSERT … RETURNING`` (a statement takes at most 65,535
#: parameters on PostgreSQL, 32,766 on SQLite: 500 rows of up to 65 columns).
ROWS_A_STATEMENT = 500

Processor = Callable[[Any], Any] | None


def _driver_connection(session: Session) -> Any:
    connection = session.connection().connection.driver_connection
    assert connection is not None
    return connection


@contextmanager
def _as_sqlalchemy_errors(session: Session, statement: str) -> Iterator[None]:
    """The driver's errors as SQLAlchemy raises them (``OperationalError`` for a full or
    unreachable database, …), so that callers and the error handlers see one kind."""
    dbapi = session.get_bind().dialect.dbapi
    assert dbapi is not None
    try:
        yield
    except dbapi.Error as exc:
        raise DBAPIError.instance(statement, None, exc, dbapi.Error) from exc


def copy_rows(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """PostgreSQL: the rows by ``COPY`` (JSON columns as JSON text)."""
    columns = list(rows[0])
    as_json = [isinstance(table.c[name].type, JSON) for name in columns]
    connection = _driver_connection(session)
    names = ", ".join(f'"{name}"' for name in columns)
    statement = f'COPY "{table.name}" ({names}) FROM STDIN'
    with _as_sqlalchemy_errors(session, statement), connection.cursor() as cursor:
        with cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(
                    [
                        json_text(row[name]) if js and row[name] is not None else row[name]
                        for name, js in zip(columns, as_json, strict=True)
                    ]
                )


@lru_cache(maxsize=128)
def _insert(
    table: Table,
    columns: tuple[str, ...],
    dialect: Dialect,
    returning: tuple[str, ...] = (),
    skip_conflict_on: str | None = None,
    count: int = 1,
) -> tuple[str, tuple[Processor, ...]]:
    """The statement (``count`` rows of ``columns``, in the driver's parameter style) and
    the columns' bind processors."""
    names = ", ".join(f'"{name}"' for name in columns)
    mark = "?" if dialect.paramstyle == "qmark" else "%s"
    row = "(" + ", ".join(mark for _ in columns) + ")"
    sql = f'INSERT INTO "{table.name}" ({names}) VALUES ' + ", ".join(row for _ in range(count))
    if skip_conflict_on is not None:
        sql += f' ON CONFLICT ("{skip_conflict_on}") DO NOTHING'
    if returning:
        sql += " RETURNING " + ", ".join(f'"{name}"' for name in returning)
    processors: list[Processor] = []
    for name in columns:
        process: Processor = table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
        # JSON as text (SQLite's), not a driver object (psycopg's ``Json``): ``json_text``
        if (
            process is not None
            and isinstance(table.c[name].type, JSON)
            and process([0]) == json_text([0])
        ):
            process = _json_bind(process)
        processors.append(process)
    return sql, tuple(processors)


def _driver_values(
    columns: tuple[str, ...], processors: tuple[Processor, ...], rows: Sequence[dict[str, Any]]
) -> list[list[Any]]:
    """The rows as the driver takes them. A value that is the same object as the one
    above it in its column (a hand's ``played_at`` on each of its ~22 decision rows) is
    converted once."""
    take = itemgetter(*columns)
    single = len(columns) == 1
    convert = [(i, process) for i, process in enumerate(processors) if process is not None]
    seen: list[Any] = [None] * len(columns)
    done: list[Any] = [None] * len(columns)
    out = []
    for row in rows:
        values = [take(row)] if single else list(take(row))
        for i, process in convert:
            value = values[i]
            if value is None:
                continue
            if value is not seen[i]:
                seen[i] = value
                done[i] = process(value)
            values[i] = done[i]
        out.append(values)
    return out


def _ints_json(value: Any) -> str | None:
    """``json.dumps`` of a list of plain ints (a finding's or decision's ``refs``) without
    the encoder's set-up; ``None`` for anything else."""
    if type(value) is list and all(type(x) is int for x in value):
        return "[" + ", ".join(map(str, value)) + "]"
    return None


def json_text(value: Any) -> str:
    """``json.dumps(value)``: what a JSON column stores."""
    return _ints_json(value) or json.dumps(value)


def _json_bind(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A JSON column's bind processor, faster for lists of ints."""

    def bind(value: Any) -> Any:
        text = _ints_json(value)
        return process(value) if text is None else text

    return bind


def sqlite_rows(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """SQLite: the rows by the driver's ``executemany``."""
    columns = tuple(rows[0])
    sql, processors = _insert(table, columns, session.get_bind().dialect)
    cursor = _driver_connection(session).cursor()
    try:
        with _as_sqlalchemy_errors(session, sql):
            cursor.executemany(sql, _driver_values(columns, processors, rows))
    finally:
        cursor.close()


def few_rows(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """PostgreSQL: a few rows in one statement (``_statement``; one round trip, whose
    text recurs, so psycopg prepares it)."""
    columns = tuple(rows[0])
    sql, values = _statement(table, columns, session.get_bind().dialect, rows)
    with _as_sqlalchemy_errors(session, sql), _driver_connection(session).cursor() as cursor:
        cursor.execute(sql, values)


def insert_rows(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """The rows in the cheapest way the database has: on SQLite, sqlite3's C loop straight
    on the connection (SQLAlchemy's statement work cost more than the inserts); on
    PostgreSQL, ``COPY`` once there are enough rows (a tenth of the time of psycopg's
    pipelined executemany), else one statement on the driver (``few_rows``)."""
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        sqlite_rows(session, table, rows)
    elif len(rows) >= COPY_FROM:
        copy_rows(session, table, rows)
    else:
        few_rows(session, table, rows)


@lru_cache(maxsize=32)
def _insert_unnest(
    table: Table,
    columns: tuple[str, ...],
    dialect: Dialect,
    returning: tuple[str, ...],
    skip_conflict_on: str | None,
) -> tuple[str, tuple[Processor, ...]] | None:
    """PostgreSQL: the rows as one array a column (``INSERT … SELECT * FROM unnest(…)``),
    or None when a column is JSON (then ``VALUES``). Its text and its parameters (one a
    column) are the same for any number of rows: psycopg converts a statement's
    placeholders anew each time it has more than 50 parameters (its cache's limit),
    ~9 ms for 200 rows of 9 columns in ``VALUES``. Each array is cast to its column's
    type, strings to ``text[]`` (``database.array_element``), and sent in binary
    (``%b``): psycopg writes a text array by escaping each element with a regular
    expression, which for 200 verdicts' JSON cost more than the ``VALUES`` it replaces."""
    types = []
    for name in columns:
        column_type = table.c[name].type
        if isinstance(column_type, JSON):
            return None
        types.append(array_element(column_type).compile(dialect=dialect))
    _, processors = _insert(table, columns, dialect)
    names = ", ".join(f'"{name}"' for name in columns)
    arrays = ", ".join(f"%b::{kind}[]" for kind in types)
    sql = f'INSERT INTO "{table.name}" ({names}) SELECT * FROM unnest({arrays})'
    if skip_conflict_on is not None:
        sql += f' ON CONFLICT ("{skip_conflict_on}") DO NOTHING'
    if returning:
        sql += " RETURNING " + ", ".join(f'"{name}"' for name in returning)
    return sql, processors


def _statement(
    table: Table,
    columns: tuple[str, ...],
    dialect: Dialect,
    rows: Sequence[dict[str, Any]],
    returning: tuple[str, ...] = (),
    skip_conflict_on: str | None = None,
) -> tuple[str, list[Any]]:
    """One ``INSERT`` of the rows and its parameters: on PostgreSQL the rows as arrays
    (``_insert_unnest``) unless a column is JSON, else multi-row ``VALUES``."""
    if dialect.name == "postgresql":
        unnest = _insert_unnest(table, columns, dialect, returning, skip_conflict_on)
        if unnest is not None:
            sql, processors = unnest
            converted = _driver_values(columns, processors, rows)
            return sql, [list(column) for column in zip(*converted, strict=True)]
    sql, processors = _insert(
        table, columns, dialect, returning, skip_conflict_on, count=len(rows)
    )
    return sql, [value for row in _driver_values(columns, processors, rows) for value in row]


def rows_returning(
    session: Session,
    table: Table,
    rows: Sequence[dict[str, Any]],
    returning: tuple[str, ...],
    skip_conflict_on: str | None = None,
) -> list[tuple[Any, ...]]:
    """Insert the rows (skipping those that conflict on ``skip_conflict_on``); the
    ``returning`` columns of those inserted, in no particular order. ``INSERT …
    RETURNING`` on the driver (``_statement``), ``ROWS_A_STATEMENT`` rows a statement
    (SQLAlchemy's insertmanyvalues does the same with more work; sqlite3's
    ``executemany`` returns no rows)."""
    if not rows:
        return []
    columns = tuple(rows[0])
    dialect = session.get_bind().dialect
    found: list[tuple[Any, ...]] = []
    cursor = _driver_connection(session).cursor()
    try:
        for start in range(0, len(rows), ROWS_A_STATEMENT):
            chunk = rows[start : start + ROWS_A_STATEMENT]
            sql, values = _statement(table, columns, dialect, chunk, returning, skip_conflict_on)
            with _as_sqlalchemy_errors(session, sql):
                cursor.execute(sql, values)
                found += cursor.fetchall()
    finally:
        cursor.close()
    return found
