"""Reading the pages back: the cards of each zone of each seat."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class TableReader(HTMLParser):
    """Collects, per seat, the ``data-card`` names in hand, melds and discards, and the
    table step, stock and revealed card of a rendered table."""

    def __init__(self) -> None:
        super().__init__()
        self.step: int | None = None
        self.seats: dict[int, dict[str, Any]] = {}
        self.stock: str = ""
        self.revealed: str | None = None
        self._seat: int | None = None
        self._zone: str | None = None
        self._in_stock = False
        self._in_huxi = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "aside":  # the audit beside the table: no seat's cards
            self._seat = None
        if tag == "section" and "data-step" in a and self.step is None:
            self.step = int(a["data-step"] or 0)
        if tag == "section" and "data-seat" in a:
            self._seat = int(a["data-seat"] or 0)
            self.seats[self._seat] = {"hand": [], "melds": [], "row": [], "huxi": None}
            self._zone = None
        if tag == "div" and "data-zone" in a and self._seat is not None:
            self._zone = a["data-zone"]
        if tag == "li" and "data-kind" in a and self._seat is not None:
            self.seats[self._seat]["melds"].append({"kind": a["data-kind"], "cards": []})
        if (tag == "span" and "data-card" in a and self._seat is not None
                and self._zone in ("hand", "melds", "row")):
            name = a["data-card"]
            seat = self.seats[self._seat]
            if self._zone == "melds":
                seat["melds"][-1]["cards"].append(name)
            else:
                seat[self._zone].append(name)
        if "data-stock" in a:
            self._in_stock = True
        if "data-huxi" in a:
            self._in_huxi = True
        if "data-revealed" in a:
            self.revealed = a["data-revealed"]

    def handle_data(self, data: str) -> None:
        if self._in_stock:
            self.stock = data.strip()
            self._in_stock = False
        if self._in_huxi and self._seat is not None:
            self.seats[self._seat]["huxi"] = int(data.strip())
            self._in_huxi = False


def read_table(html: str) -> TableReader:
    reader = TableReader()
    reader.feed(html)
    return reader
