"""The service serves the JSON Schema of paohuzi-log/1 and uses it as the ingest body."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

SCHEMA_FILE = Path(__file__).parents[2] / "replay" / "schema" / "paohuzi-log-1.schema.json"


def test_the_schema_is_served_without_a_key(client: TestClient) -> None:
    got = client.get("/api/v1/schema/paohuzi-log-1.json")
    assert got.status_code == 200
    assert got.headers["content-type"].startswith("application/schema+json")
    assert got.content == SCHEMA_FILE.read_bytes()
    assert json.loads(got.content)["properties"]["format"] == {"const": "paohuzi-log/1"}


def test_post_games_documents_the_log_schema_as_its_body(client: TestClient) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    body = spec["paths"]["/api/v1/games"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/PaohuziLog1"}
    schemas = spec["components"]["schemas"]
    log = schemas["PaohuziLog1"]
    assert log["required"][:3] == ["format", "game_id", "ruleset"]
    assert "changde" in log["properties"]["ruleset"]["enum"]
    assert log["properties"]["match"]["properties"]["drawn_before"]["minimum"] == 0
    assert schemas["PaohuziLog1Event"]["oneOf"] and schemas["PaohuziLog1Card"]["enum"][0] == "x1"
    assert "#/$defs/" not in json.dumps(spec)
