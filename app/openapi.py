"""The OpenAPI document, with FastAPI's generic 422 removed where it cannot happen.

Endpoints declare every status they answer (``errors.error_responses``); FastAPI adds
a default 422 to any endpoint with parameters, even a path string that cannot fail.
Where an endpoint declared its own 422 (with the ``ErrorBody`` shape) that one stays.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from replay.logschema import openapi_schemas

_GENERIC = "#/components/schemas/HTTPValidationError"


def _is_generic(response: dict[str, Any]) -> bool:
    content = response.get("content", {}).get("application/json", {})
    return bool(content.get("schema", {}).get("$ref") == _GENERIC)


def install(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        spec = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        for item in spec.get("paths", {}).values():
            for operation in item.values():
                responses = operation.get("responses", {})
                if "422" in responses and _is_generic(responses["422"]):
                    del responses["422"]
        schemas = spec.setdefault("components", {}).setdefault("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            schemas.pop(name, None)
        schemas.update(openapi_schemas())  # the paohuzi-log/1 body of POST /games
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]
