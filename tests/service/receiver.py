"""A webhook receiver on 127.0.0.1 that can be down (nothing listening) and come back."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .server import free_port


@dataclass(frozen=True, slots=True)
class Received:
    headers: dict[str, str]
    body: bytes


class Receiver:
    def __init__(self) -> None:
        self.port = free_port()
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def up(self) -> Receiver:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with outer.lock:
                    outer.received.append(Received(dict(self.headers.items()), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def down(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def deliveries(self) -> dict[str, Received]:
        """By ``X-Paohuzi-Delivery`` (a repeat of one delivery counts once)."""
        with self.lock:
            return {r.headers["X-Paohuzi-Delivery"]: r for r in self.received}
