"""A Problem is a record like the glossary's: set once through `Frozen.init_fields`, then fixed."""

from __future__ import annotations

import pytest

from bot.glossary.problems import Problem


def test_a_problem_keeps_its_fields_and_refuses_changes() -> None:
    problem = Problem("error", "data/a.toml", "title: missing", entry="kv-cache", line=12)
    assert (problem.severity, problem.file, problem.message) == (
        "error",
        "data/a.toml",
        "title: missing",
    )
    assert (problem.entry, problem.line) == ("kv-cache", 12)
    assert str(problem) == "data/a.toml:12 [kv-cache]: error: title: missing"
    assert Problem("warning", "b.toml", "odd") == Problem("warning", "b.toml", "odd", None, None)
    assert problem.model_copy(update={"line": 3}).line == 3
    with pytest.raises(AttributeError, match="immutable Problem"):
        problem.line = 13  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable Problem"):
        problem.init_fields("warning", "x.toml", "changed", None, None, None)
    with pytest.raises(TypeError, match="6 fields"):
        Problem.__new__(Problem).init_fields("error", "x.toml")
    assert problem.line == 12
