"""Reading a request body with a size limit (413 before anything is parsed or stored)."""

from __future__ import annotations

from fastapi import Request

from ..errors import InvalidRequest, PayloadTooLarge


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(
        f"the body is larger than the limit of {limit} bytes", extra={"limit_bytes": limit}
    )


async def read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            raise InvalidRequest("Content-Length is not a number") from None
        if size > limit:
            raise _too_large(limit)
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)
