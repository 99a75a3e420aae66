"""Room left for an SQLite database: free disk space and its own page limit."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy.orm import Session


def sqlite_room(session: Session) -> int:
    """Bytes the database may still grow by (the smaller of the two limits)."""
    conn = session.connection()
    page_size = int(conn.exec_driver_sql("PRAGMA page_size").scalar() or 4096)
    pages = int(conn.exec_driver_sql("PRAGMA page_count").scalar() or 0)
    most = int(conn.exec_driver_sql("PRAGMA max_page_count").scalar() or 0)
    room = (most - pages) * page_size
    path = conn.engine.url.database
    if path and path != ":memory:":
        room = min(room, shutil.disk_usage(Path(path).resolve().parent).free)
    return room
