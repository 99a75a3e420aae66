"""SQLite's write-ahead log copied into the database file by a thread of the server.

By default the connection whose commit takes the log past 1,000 pages copies it back
into the database file (a checkpoint, with an fsync) before its commit returns. On the
server that connection is the event loop's own (``dependencies.run_ingest``), so every
few hundred requests one request stopped the whole loop for the copy: 0.3-0.5 ms a
request on average (docs/performance.md, "Seventh pass"). The server's connections turn
that off (``wal_autocheckpoint=0``, ``database.make_engine(checkpoint=False)``) and this
thread checkpoints every ``Settings.sqlite_checkpoint_seconds`` instead, on a connection
of its own. SQLite lets go of the interpreter while it copies, so requests go on meanwhile.

Checkpoints are ``PASSIVE``: they wait for no reader and no writer, and what one could
not copy the next one copies. The last one, when the server stops, is ``TRUNCATE`` (the
log left empty) unless another process keeps writing for more than 0.2 s. Other
processes on the same file (an import, a re-audit) keep SQLite's default.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

logger = logging.getLogger(__name__)


class Checkpointer:
    """A thread that checkpoints the SQLite database at ``path`` every ``every`` seconds."""

    def __init__(self, path: str, every: float) -> None:
        self.path = path
        self.every = every
        #: checkpoints run (the tests wait on it)
        self.runs = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="sqlite-checkpoint", daemon=True)

    def start(self) -> Checkpointer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=30)

    def run_once(self, connection: sqlite3.Connection, mode: str = "PASSIVE") -> None:
        """One checkpoint; SQLite's answer (busy, frames in the log, frames copied) is
        logged at debug level."""
        row = connection.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        self.runs += 1
        logger.debug("checkpoint %s of %s: %s", mode, self.path, row)

    def _loop(self) -> None:
        try:
            connection = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        except sqlite3.Error:
            logger.exception("cannot open %s to checkpoint it", self.path)
            return
        try:
            while not self._stopping.wait(self.every):
                try:
                    self.run_once(connection)
                except sqlite3.Error:  # a full disk, say: the requests report it
                    logger.exception("checkpoint of %s", self.path)
            try:  # (another server process may be writing: wait for it a little only)
                connection.execute("PRAGMA busy_timeout=200")
                self.run_once(connection, "TRUNCATE")
            except sqlite3.Error:
                logger.exception("last checkpoint of %s", self.path)
        finally:
            connection.close()
