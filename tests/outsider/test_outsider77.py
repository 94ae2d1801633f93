"""outsider77: a new moderator's first week, run as users run it (tests/outsider/PLAN.md)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from .test_product71 import _run


def _into_a_closed_pipe(arguments: list[str], home: Path) -> int:
    """`glossary-bot ARGUMENTS 2>&1 | true`: both streams into a pipe whose reader has gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return _run([sys.executable, "-m", "bot", *arguments], home, stdout=write, stderr=write)
    finally:
        os.close(write)


@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        (["terms", "import", "nosuch.toml", "--guild", "1", "--db", "a.db"], 1),
        (["terms", "import", "bad.toml", "--guild", "1", "--db", "a.db", "--dry-run"], 1),
        (["terms", "export", "--guild", "1", "--db", "missing.db"], 1),
        (["export"], 0),
    ],
    ids=["missing file", "refused import", "missing database", "export"],
)
def test_a_failure_said_into_a_gone_pipe_keeps_its_status(
    tmp_path: Path, arguments: list[str], status: int
) -> None:
    """A refused import (or a missing file, a missing database) whose stderr went into a pipe
    whose reader had gone (`terms import f --guild 1 2>&1 | head -1` in a script with pipefail)
    exited 0, as if imported: the BrokenPipeError of its error line was taken for `export |
    head`'s, which is no error. Its own status now; `export | head` still 0."""
    (tmp_path / "bad.toml").write_text("[[entries]]\nid = 'x'\n", encoding="utf-8")
    assert _into_a_closed_pipe(arguments, tmp_path).returncode == status
