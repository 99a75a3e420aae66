"""Schemathesis over the whole API, on SQLite and on PostgreSQL.

Every default check (no 5xx, only documented statuses, content types, headers and
bodies as documented, negative data rejected, auth not ignored, …), each operation on
its own and then stateful (sequences linked by the ids the API hands out). Bounded
and derandomized here (``PAOHUZI_FUZZ_EXAMPLES``, default 8 per operation and mode); ``make
fuzz`` runs the same tests with many more examples.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from app.database import Database
from app.main import create_app
from app.settings import Settings

from .conftest import ALL_SCOPES, key_headers
from .logs import log_bytes

EXAMPLES = int(os.environ.get("PAOHUZI_FUZZ_EXAMPLES", "8"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def api(settings: Settings, committed_db: Database) -> Iterator[tuple[Any, dict[str, str]]]:
    """The app on a database of its own that commits: thousands of requests in one
    rolled-back transaction would each keep a savepoint's lock on PostgreSQL until the
    end (``make fuzz`` ran out of ``max_locks_per_transaction``), and SQLite's single
    POSTs take the group commit, as in production."""
    app = create_app(settings, db=committed_db)
    headers = key_headers(committed_db, *ALL_SCOPES, name="fuzz")
    with TestClient(app) as client:  # a few stored hands, so that reads find something
        for i in range(3):
            client.post("/api/v1/games", content=log_bytes(f"fuzz-{i}"), headers=headers)
        client.post("/api/v1/reports", headers=headers, json={
            "game_id": "fuzz-0", "reporter": client.get(
                "/api/v1/games/fuzz-0", headers=headers).json()["players"][0]["player_id"],
            "accused_seat": 1, "reason": "other"})
    yield schemathesis.openapi.from_asgi("/api/v1/openapi.json", app), headers


#: checks that cannot hold for an operation, each for a stated reason (all others run):
#: - a log that the paohuzi-log/1 JSON Schema (the request body of ``POST /games``) admits
#:   may still break what no JSON Schema states (4 of each card kind, 21/20/20/19 cards,
#:   the shown card in the dealer's hand), so a schema-valid log is rightly 422;
#: - the bulk body is NDJSON text: a "schema-violating" non-string is just a text line,
#:   answered 200 with that line ``rejected`` (documented);
#: - a findings cursor is opaque: only the ones the API handed out are valid (else 422);
#: - an evidence step must lie within the case's hand (-1 to its last event; else 422);
#: - a case moved to under_review is assigned to an active operator: ``assignee`` must
#:   name one that exists (or the actor be one), which no schema states (else 422;
#:   found by ``make fuzz``);
#: - a report's ``reporter`` must be a player of the game when the game is stored (a fuzzed
#:   log may store one under a fuzzed id, e.g. ``Cache-Control``, that a fuzzed report then
#:   names with another reporter: 422 ``/reporter``, which no schema states; found by
#:   ``make fuzz`` on the ninth pass).
EXCLUDED = {
    "POST /api/v1/reports": [positive_data_acceptance],
    "POST /api/v1/games": [positive_data_acceptance],
    "POST /api/v1/games:bulk": [positive_data_acceptance, negative_data_rejection],
    "GET /api/v1/findings": [positive_data_acceptance],
    "POST /api/v1/cases/{case_id}/evidence": [positive_data_acceptance],
    "POST /api/v1/cases/{case_id}/transitions": [positive_data_acceptance],
    "POST /api/v1/player-cases/{player_case_id}/transitions": [positive_data_acceptance],
}


@schemathesis.serializer("application/x-ndjson")
def _ndjson(_: Any, value: Any) -> bytes:
    """The bulk body is documented as a string (the NDJSON text): sent as its bytes."""
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else \
        json.dumps(value).encode()


def _runner(operation: Any, mode: GenerationMode, headers: dict[str, str]) -> Any:
    excluded = EXCLUDED.get(operation.label, [])

    @given(case=operation.as_strategy(generation_mode=mode))
    @SETTINGS
    def run(case: Any) -> None:
        case.call_and_validate(headers=dict(headers), excluded_checks=excluded)

    return run


def _operations(api: Any) -> list[Any]:
    return [result.ok() for result in api.get_all_operations()]


@pytest.mark.parametrize("mode", list(GenerationMode), ids=str)
def test_api(api: tuple[Any, dict[str, str]], mode: GenerationMode) -> None:
    """Each operation on its own (``schema.parametrize`` does not run on pytest 9)."""
    schema, headers = api
    failures = []
    for operation in _operations(schema):
        run = _runner(operation, mode, headers)
        try:
            run()
        except Unsatisfiable:  # nothing to negate (no parameters, no body)
            assert mode is GenerationMode.NEGATIVE, operation.label
        except Exception as exc:
            failures.append(f"{operation.label} ({mode}): {exc}")
    assert not failures, "\n\n".join(failures)


def test_api_stateful(api: tuple[Any, dict[str, str]]) -> None:
    machine = api[0].as_state_machine()
    headers = api[1]

    class Workflow(machine):  # type: ignore[misc, valid-type]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": dict(headers)}

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            kwargs["excluded_checks"] = EXCLUDED.get(case.operation.label, [])
            case.validate_response(response, **kwargs)

    Workflow.run(settings=settings(
        max_examples=max(2, EXAMPLES // 2), stateful_step_count=6, derandomize=True,
        deadline=None, database=None, suppress_health_check=list(HealthCheck)))
