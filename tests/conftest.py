"""What every test folder shares: the PostgreSQL half of the suite.

The tests that need a real PostgreSQL (the storage contract suite's `backend=postgres` half, and
tests marked `postgres`: several processes on one database, the load test's two processes) run
against TEST_DATABASE_URL (CI sets it; locally
`export TEST_DATABASE_URL=$(bash ../shared/tools/postgres.sh | tail -1)`). Without it they are
left out, and the run says so on one line.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
_left_out: list[pytest.Item] = []


def needs_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    in_postgres_half = callspec is not None and callspec.params.get("backend") == "postgres"
    return in_postgres_half or item.get_closest_marker("postgres") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without TEST_DATABASE_URL the PostgreSQL half is left out, and said so once."""
    if TEST_DATABASE_URL:
        return
    _left_out[:] = [item for item in items if needs_postgres(item)]
    if _left_out:
        config.hook.pytest_deselected(items=_left_out)
        items[:] = [item for item in items if not needs_postgres(item)]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _left_out:
        terminalreporter.write_line(
            f"PostgreSQL half skipped ({len(_left_out)} tests: the storage contract suite's, "
            "several processes on one database, the two-process load): "
            "TEST_DATABASE_URL is not set"
        )
