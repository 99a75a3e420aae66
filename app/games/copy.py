"""PostgreSQL ``COPY … FROM STDIN`` for the many finding and decision rows of a batch,
on the session's own connection (so inside its transaction)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import JSON, Table
from sqlalchemy.orm import Session

#: fewer rows than this go through executemany (COPY's set-up is not free).
COPY_FROM = 50


def copy_rows(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    columns = list(rows[0])
    as_json = [isinstance(table.c[name].type, JSON) for name in columns]
    connection = session.connection().connection.driver_connection
    assert connection is not None
    names = ", ".join(f'"{name}"' for name in columns)
    with connection.cursor() as cursor:
        with cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row(
                    [
                        json.dumps(row[name]) if js and row[name] is not None else row[name]
                        for name, js in zip(columns, as_json, strict=True)
                    ]
                )
