"""The suite's Python bytecode, compiled once per run rather than in every process (cpu61).

Where PYTHONDONTWRITEBYTECODE is set (this machine's environment sets it, and a container's
often does), no process writes bytecode, so each compiled what it imported from source: every
xdist worker the bot and all ~390 test modules (pytest's assertion rewriting: ~14 s of a
worker's ~21 s of collection, three times a run), and every bot or `glossary-bot` process a test
starts the ~120 modules of the bot it imports (~0.4 s of its ~2.2 s start-up). An installed bot
never does: pip compiles the bytecode at install (the image too).

So the run's first process (pytest itself, or xdist's controller before its workers start)
writes the bot's and the tests' helpers' ordinary bytecode once, exactly what an import would
write (public `compileall`; stale files are recompiled by timestamp as on any import). Every later
process reads them; nothing a test runs or asserts changes. The test modules themselves are left
to pytest's assertion rewriting in each worker: caching that would need pytest's private API.
"""

from __future__ import annotations

import compileall
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Modules pytest rewrites (their plain bytecode would never be read).
_REWRITTEN = re.compile(r"(^|[/\\])(test_[^/\\]*|conftest)\.py$")


def compile_once(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller did it
        return
    compileall.compile_dir(ROOT / "bot", quiet=1)
    compileall.compile_dir(ROOT / "tests", quiet=1, rx=_REWRITTEN)
