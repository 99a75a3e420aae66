"""The OpenAPI document lists every status code each service endpoint can answer."""

from __future__ import annotations

from fastapi.testclient import TestClient

EXPECTED = {
    ("post", "/api/v1/games"): {"200", "201", "401", "403", "409", "413", "422"},
    ("post", "/api/v1/games:bulk"): {"200", "401", "403", "413", "422"},
    ("get", "/api/v1/games/{game_id}"): {"200", "401", "403", "404"},
    ("get", "/api/v1/games/{game_id}/log"): {"200", "401", "403", "404"},
    ("get", "/api/v1/games/{game_id}/verdict"): {"200", "401", "403", "404"},
    ("get", "/api/v1/findings"): {"200", "401", "403", "422"},
    ("get", "/api/v1/players/{player_id}"): {"200", "401", "403", "404"},
    ("get", "/api/v1/matches/{match_id}"): {"200", "401", "403", "404"},
    ("post", "/api/v1/admin/reaudit"): {"200", "401", "403", "422"},
    ("get", "/api/v1/healthz"): {"200", "503"},
    ("get", "/api/v1/metrics"): {"200", "401", "403"},
    ("get", "/api/v1/cases/{case_id}"): {"200", "401", "403", "404", "422"},
}
#: every operation may meet a database that is down or full (503 with Retry-After)
for _codes in EXPECTED.values():
    _codes.add("503")


def test_every_status_is_documented(client: TestClient) -> None:
    spec = client.get("/api/v1/openapi.json").json()
    found = {
        (method, path): set(op["responses"])
        for path, item in spec["paths"].items()
        for method, op in item.items()
    }
    assert {k: found.get(k) for k in EXPECTED} == EXPECTED
    for (method, path), codes in EXPECTED.items():
        for code in codes - {"200", "201", "503"}:
            schema = spec["paths"][path][method]["responses"][code]["content"]["application/json"]
            assert schema["schema"]["$ref"].endswith("/ErrorBody"), (method, path, code)


def test_docs_page(client: TestClient) -> None:
    assert client.get("/api/v1/docs").status_code == 200
