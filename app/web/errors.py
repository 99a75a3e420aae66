"""Errors of the pages: answered with an HTML page (the API keeps its JSON errors)."""

from __future__ import annotations


class PageError(Exception):
    def __init__(self, status_code: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.title = title
        self.message = message
