"""What every test folder shares: the PostgreSQL half of the suite, the test process's
workaround of an interpreter bug (tests/python_bugs.py), and Ctrl-C however the run was started.

The tests that need a real PostgreSQL (the storage contract suite's `backend=postgres` half, and
tests marked `postgres`: several processes on one database, the load test's two processes) run
against TEST_DATABASE_URL (CI sets it; locally
`export TEST_DATABASE_URL=$(bash ../shared/tools/postgres.sh | tail -1)`). Without it they are
left out, and the run says so on one line.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.cpu61_bytecode import compile_once
from tests.python_bugs import parse_one_at_a_time

parse_one_at_a_time()

# Opt-in CPU accounting per test, child processes included (off unless CPU61_CPU_LOG is set).
pytest_plugins = ["tests.cpu61_cpu"]

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
_left_out: list[pytest.Item] = []
# Under pytest-xdist the workers collect and the controller reports: each worker sends its count.
_left_out_by_worker: dict[str, int] = {}


def needs_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    in_postgres_half = callspec is not None and callspec.params.get("backend") == "postgres"
    return in_postgres_half or item.get_closest_marker("postgres") is not None


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the tests however the run was started. A shell without job control
    (`make test &`, a script's `cmd &`) starts a background command with SIGINT ignored,
    and Python then keeps it ignored: `asyncio.run` turns Ctrl-C into a cancellation only with
    Python's own handler in place, so the tests that press Ctrl-C (`signal.raise_signal`: prune,
    prune --vacuum, terms and aliases import) saw it swallowed and the command finish untouched,
    in every such run (they passed in the foreground)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    compile_once(config)
    _own_cache_dir(config)


def _own_cache_dir(config: pytest.Config) -> None:
    """The run's own cache folder (GLOSSARY_CACHE_DIR), always, made empty in TMPDIR: concurrent
    runs shared ~/.cache/glossary-bot, each writing the vectors it embedded into the others'
    file (safe since product74, but one run's terms became another's), and a GLOSSARY_CACHE_DIR
    the developer set was used as it was, so the tests' vectors went into the developer's real
    cache (left75). Nothing is copied in: every embedding reads the bundled glossary's vectors
    from the shipped seed (`vectors.SEED_DIR`; all of them, test_speed54), so a run embeds only
    the tests' own texts (made-up terms and entries), once (xdist's workers inherit the folder
    from the controller, which removes it at the end), and its results depend on no earlier
    run's nor on what the developer's folder holds. Nothing is written back, by design: those
    vectors would take the room `MIN_KEPT` keeps for the developer's own glossaries. A test
    that wants a cache folder of its own still sets one (monkeypatch, a process's env)."""
    from bot.cachedir import CACHE_ENV

    if hasattr(config, "workerinput"):
        return
    own = Path(tempfile.mkdtemp(prefix="glossary-bot-tests-"))
    os.environ[CACHE_ENV] = str(own)
    config.add_cleanup(lambda: shutil.rmtree(own, ignore_errors=True))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without TEST_DATABASE_URL the PostgreSQL half is left out, and said so once."""
    if TEST_DATABASE_URL:
        return
    _left_out[:] = [item for item in items if needs_postgres(item)]
    if _left_out:
        config.hook.pytest_deselected(items=_left_out)
        items[:] = [item for item in items if not needs_postgres(item)]


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)  # set in an xdist worker only
    if workeroutput is not None:
        workeroutput["postgres_left_out"] = len(_left_out)


@pytest.hookimpl(optionalhook=True)  # the hook exists only with xdist loaded
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist's controller: a worker ended (every worker collects the whole suite)."""
    count = getattr(node, "workeroutput", {}).get("postgres_left_out", 0)
    _left_out_by_worker[node.gateway.id] = count


def pytest_terminal_summary(terminalreporter: Any) -> None:
    left_out = len(_left_out) or max(_left_out_by_worker.values(), default=0)
    if left_out:
        terminalreporter.write_line(
            f"PostgreSQL half skipped ({left_out} tests: the storage contract suite's, "
            "several processes on one database, the two-process load): "
            "TEST_DATABASE_URL is not set"
        )
