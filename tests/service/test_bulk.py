from __future__ import annotations

import json

from fastapi.testclient import TestClient

from app.database import Database
from app.settings import Settings

from .conftest import row_counts
from .logs import engine_verdict, log_bytes, log_doc

URL = "/api/v1/games:bulk"


def _lines(answer_text: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in answer_text.splitlines()]


def test_bulk_mix(client: TestClient, headers: dict[str, str], db: Database) -> None:
    # One already stored before the bulk call.
    assert (
        client.post("/api/v1/games", content=log_bytes("m-0"), headers=headers).status_code == 201
    )
    body = (
        b"\n".join(
            [
                log_bytes("m-1"),
                log_bytes("m-0"),  # duplicate of a stored one
                log_bytes("m-0", seed=9),  # conflict with a stored one
                b"{not json",
                b"",  # blank lines are skipped
                log_bytes("m-2", doctor="out_of_turn"),
                log_bytes("m-2"),  # conflict with a line of this same request
                log_bytes("m-1"),  # duplicate of a line of this same request
                json.dumps({**log_doc("m-3"), "dealer": 7}).encode(),
                log_bytes("m-4"),
                log_bytes("m-5"),
            ]
        )
        + b"\n"
    )
    answer = client.post(URL, content=body, headers=headers)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    lines = _lines(answer.text)
    got = [(line["line"], line["game_id"], line["status"]) for line in lines]
    assert got == [
        (1, "m-1", "created"),
        (2, "m-0", "duplicate"),
        (3, "m-0", "conflict"),
        (4, None, "rejected"),
        (6, "m-2", "created"),
        (7, "m-2", "conflict"),
        (8, "m-1", "duplicate"),
        (9, "m-3", "rejected"),
        (10, "m-4", "created"),
        (11, "m-5", "created"),
    ]
    assert lines[0]["verdict"] == {"status": "clean", "findings": 0}
    m2 = engine_verdict(log_bytes("m-2", doctor="out_of_turn"))
    assert lines[4]["verdict"] == {"status": "violations", "findings": len(m2.findings)}
    assert lines[2]["error"]["code"] == "conflict"
    assert lines[3]["error"]["problems"][0]["pointer"] == ""
    assert lines[7]["error"]["problems"][0]["pointer"] == "/dealer"
    counts = row_counts(db)
    assert counts["hand_logs"] == 5 and counts["verdicts"] == 5 and counts["log_players"] == 15
    assert counts["findings"] == len(m2.findings)
    assert counts["decisions"] == len(m2.decisions)
    # Each stored line's bytes are the line itself.
    assert client.get("/api/v1/games/m-4/log", headers=headers).content == log_bytes("m-4")


def test_bulk_oversize_line_is_rejected_alone(
    client: TestClient, headers: dict[str, str], db: Database
) -> None:
    big = log_doc("big")
    big["meta"] = {"pad": "x" * 70_000}
    body = b"\n".join([log_bytes("ok-1"), json.dumps(big).encode(), log_bytes("ok-2")])
    lines = _lines(client.post(URL, content=body, headers=headers).text)
    assert [line["status"] for line in lines] == ["created", "rejected", "created"]
    assert lines[1]["error"]["code"] == "payload_too_large"
    assert lines[1]["game_id"] is None  # not parsed: the line number says which
    assert row_counts(db)["hand_logs"] == 2


def test_bulk_hostile_lines(client: TestClient, headers: dict[str, str], db: Database) -> None:
    deep = b"[" * 30_000 + b"]" * 30_000
    nan = b'{"game_id": "n", "x": NaN}'
    lone = b'{"game_id": "s", "x": "\\udc00"}'
    body = b"\n".join([deep, log_bytes("h-1"), nan, lone, b"\xff\xfe", log_bytes("h-2")])
    lines = _lines(client.post(URL, content=body, headers=headers).text)
    assert [line["status"] for line in lines] == [
        "rejected",
        "created",
        "rejected",
        "rejected",
        "rejected",
        "created",
    ]
    assert row_counts(db)["hand_logs"] == 2


def test_bulk_empty_body(client: TestClient, headers: dict[str, str]) -> None:
    """No log at all is a client error (documented 422), not an empty 200."""
    answer = client.post(URL, content=b"\n\n", headers=headers)
    assert answer.status_code == 422
    assert answer.json()["error"]["problems"][0]["pointer"] == "/body"


def test_bulk_retry_is_idempotent(
    client: TestClient, headers: dict[str, str], db: Database
) -> None:
    body = b"\n".join(log_bytes(f"r-{i}") for i in range(13))
    first = _lines(client.post(URL, content=body, headers=headers).text)
    assert {line["status"] for line in first} == {"created"}
    again = _lines(client.post(URL, content=body, headers=headers).text)
    assert {line["status"] for line in again} == {"duplicate"}
    assert [line["verdict"] for line in again] == [line["verdict"] for line in first]
    assert row_counts(db)["hand_logs"] == 13


def test_bulk_without_verification(settings: Settings, db: Database, key: str) -> None:
    from app.main import create_app

    settings = settings.model_copy(update={"verify_on_ingest": False})
    with TestClient(create_app(settings, db=db)) as client:
        body = b"\n".join(log_bytes(f"u-{i}") for i in range(3))
        lines = _lines(client.post(URL, content=body, headers={"X-API-Key": key}).text)
    assert [(line["status"], line["verdict"]) for line in lines] == [("created", None)] * 3
    assert row_counts(db)["verdicts"] == 0
