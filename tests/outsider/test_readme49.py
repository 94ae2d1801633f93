"""readme49: what `--help` says of `glossary-bot health` is what it does.

Run as an operator runs it: the installed `glossary-bot`, in a folder with no `.env`, with none
of the developer's settings. Outside the image `HEARTBEAT_PATH` is unset by default, and
`health` then exits 2 (README's row says so); both help texts said "exit 0 … healthy, 1 if not".
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GLOSSARY_BOT = Path(sys.executable).with_name("glossary-bot")


def _run(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTBEAT_", "DISCORD_"))}
    return subprocess.run(
        [str(GLOSSARY_BOT), *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_health_without_a_heartbeat_path_exits_as_its_help_says(tmp_path: Path) -> None:
    done = _run(tmp_path, "health")
    assert done.returncode == 2
    assert "HEARTBEAT_PATH is not set" in done.stderr
    for argv in (["health", "--help"], ["--help"]):
        text = " ".join(_run(tmp_path, *argv).stdout.split())
        assert "2 if HEARTBEAT_PATH is not set" in text, argv
