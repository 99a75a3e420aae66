"""The strict parser gives the pinned answers (``tests/rules/parse_cases.py``): the same
problem lists for thousands of broken documents, the same ``Log`` and hash for valid ones."""

from __future__ import annotations

from .parse_cases import answer, read_cases


def test_the_parser_gives_the_pinned_answers() -> None:
    cases = read_cases()
    assert len(cases) >= 6000
    moved = [
        (index, case["input"][:120], case["answer"], got)
        for index, case in enumerate(cases)
        if (got := answer(case)) != case["answer"]
    ]
    assert not moved, f"{len(moved)} answers moved; the first: {moved[:3]}"


def test_the_cases_cover_what_the_parser_refuses() -> None:
    expected = [p[1] for case in read_cases() for p in case["answer"].get("problems", [])]
    for text in (
        "each key once in an object",
        "a key without lone surrogates",
        "a string without lone surrogates",
        "JSON has no NaN",
        "nesting at most 64 arrays and objects deep, got deeper at line",
        "valid UTF-8, got an invalid byte sequence",
        "(byte order mark)",
        "got NUL bytes",
        "integers of at most",
        "(out of range)",
        "valid JSON: ",
        "a card name",
    ):
        assert any(text in e for e in expected), text
    capped = [c for c in read_cases() if len(c["answer"].get("problems", [])) == 50]
    assert capped
