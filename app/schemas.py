"""Response models shared by every domain (the error body)."""

from __future__ import annotations

from pydantic import BaseModel


class ProblemOut(BaseModel):
    pointer: str
    expected: str


class ErrorDetail(BaseModel):
    code: str
    message: str
    problems: list[ProblemOut] = []


class ErrorBody(BaseModel):
    error: ErrorDetail
