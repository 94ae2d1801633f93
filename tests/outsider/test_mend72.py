"""mend72: review72's loose ends. `--help` to a full disk; (more below)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .test_product71 import EXIT_WITHIN, WAYS_IN, _environment

FULL_DISK = (
    "glossary-bot: error: cannot write the output: No space left on device; what was "
    "written is cut short\n"
)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("arguments", [["--help"], ["-h"], ["check", "--help"]])
@pytest.mark.parametrize("way", list(WAYS_IN))
def test_help_to_a_full_disk_is_one_line_and_exit_1(
    tmp_path: Path, way: str, arguments: list[str]
) -> None:
    """`--help > file` on a full disk: the same one line and exit 1 as `--version` (review72);
    argparse's own printing dropped the OSError, and it exited 0 with nothing written."""
    command = WAYS_IN[way] if way == "script" else [sys.executable, *WAYS_IN[way]]
    with Path("/dev/full").open("w") as full:
        done = subprocess.run(
            [*command, *arguments],
            env=_environment(tmp_path),
            cwd=tmp_path,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=EXIT_WITHIN,
            check=False,
        )
    assert (done.returncode, done.stderr) == (1, FULL_DISK)


@pytest.mark.parametrize("arguments", [["--help"], ["check", "--help"]])
def test_help_still_prints_and_exits_0(tmp_path: Path, arguments: list[str]) -> None:
    """What holds: `--help` to a pipe prints the usage, exit 0; with stdout closed, exit 0."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        env=_environment(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=EXIT_WITHIN,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("usage: glossary-bot")
    closed = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "bot", *arguments],
        env=_environment(tmp_path),
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
        timeout=EXIT_WITHIN,
        check=False,
    )
    assert (closed.returncode, closed.stderr) == (0, "")
