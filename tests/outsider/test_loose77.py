"""loose77: what outsider77 noticed and left (tests/outsider/PLAN.md, `## loose77`), driven as
an operator runs `glossary-bot`: a process of its own, its own home and settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .test_product71 import EXIT_WITHIN, _environment


def _glossary_bot(
    home: Path, *arguments: str, piped: bytes | None = None, **settings: str
) -> subprocess.CompletedProcess[bytes]:
    """`glossary-bot ARGUMENTS` from a shell in `home` with only `settings` set."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        env=_environment(home, **settings),
        cwd=home,
        input=piped if piped is not None else b"",
        capture_output=True,
        timeout=EXIT_WITHIN,
        check=False,
    )


@pytest.mark.parametrize("way", ["on disk", "piped"])
def test_an_alias_file_past_the_bound_is_refused_in_one_line(tmp_path: Path, way: str) -> None:
    """`aliases import` read the whole file (or standard input) whatever its size, where `terms
    import` refuses one past its bound before reading it: a wrong file (a log, a dump) was read
    into memory whole. Now the same bound's line, on disk by its size, piped one byte past it."""
    big = tmp_path / "aliases.json"
    with big.open("wb") as file:  # sparse: its size is all the check reads
        file.truncate(40 << 20)
    if way == "on disk":
        done = _glossary_bot(tmp_path, "aliases", "import", "aliases.json", "--db", "a.db")
        said = "glossary-bot: error: aliases.json is 40 MiB; an import is at most 31.25 MiB"
    else:
        piped = b"[" + b" " * (33 << 20) + b"]"
        done = _glossary_bot(tmp_path, "aliases", "import", "-", "--db", "a.db", piped=piped)
        said = "glossary-bot: error: standard input is too big: an import is at most 31.25 MiB"
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.startswith(said), err
    assert "--guild ID" in err and err.count("\n") == 1, err
    assert not (tmp_path / "a.db").exists()
