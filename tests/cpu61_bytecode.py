"""The suite's Python bytecode, compiled once per run rather than in every process (cpu61).

Where PYTHONDONTWRITEBYTECODE is set (this machine's environment sets it, and a container's
often does), no process writes bytecode, so each compiled what it imported from source: every
xdist worker the bot and all ~390 test modules (pytest's assertion rewriting: ~14 s of a
worker's ~21 s of collection, three times a run), and every bot or `glossary-bot` process a test
starts the ~120 modules of the bot it imports (~0.4 s of its ~2.2 s start-up). An installed bot
never does: pip compiles the bytecode at install (the image too).

So the run's first process (pytest itself, or xdist's controller before its workers start)
writes them once: the bot's and the tests' helpers' ordinary bytecode, exactly what an import
would write, and pytest's rewritten test modules of the run's paths in pytest's own cache files
(checked against each source's hash on every read, so an edited test is rewritten; a run in one
process rewrites each module once either way). Every later process reads them; nothing a test
runs or asserts changes. Without PYTHONDONTWRITEBYTECODE, Python and pytest would have written
the same files at the first import (by then each worker had compiled its own).
"""

from __future__ import annotations

import compileall
import re
from collections.abc import Iterator
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
    if config.getoption("assertmode") == "rewrite":
        _rewrite_test_modules(config)


def _test_modules(config: pytest.Config) -> Iterator[Path]:
    """The test modules and conftests under the run's paths (all of tests/ by default)."""
    base = config.invocation_params.dir
    for arg in config.args:
        path = base / arg.split("::")[0]
        if not path.exists():  # testpaths, given relative to the rootdir
            path = config.rootpath / arg.split("::")[0]
        path = path.resolve()
        if path.is_file() and _REWRITTEN.search(str(path)):
            yield path
        elif path.is_dir():
            yield from (p for p in sorted(path.rglob("*.py")) if _REWRITTEN.search(str(p)))


def _rewrite_test_modules(config: pytest.Config) -> None:
    """What each worker's import of a test module would do first (pytest's AssertionRewriting-
    Hook.exec_module), done here once: the workers find the rewritten code in pytest's cache."""
    from _pytest.assertion.rewrite import (
        PYC_TAIL,
        _read_pyc,
        _rewrite_test,
        _write_pyc,
        assertstate_key,
        get_cache_dir,
        try_makedirs,
    )

    state = config.stash[assertstate_key]
    for source in dict.fromkeys(_test_modules(config)):
        cache_dir = get_cache_dir(source)
        pyc = cache_dir / (source.name[:-3] + PYC_TAIL)
        if _read_pyc(source, pyc) is not None or not try_makedirs(cache_dir):
            continue
        source_hash, code = _rewrite_test(source, config)
        _write_pyc(state, code, source_hash, pyc)
