"""review76 (tests/outsider/PLAN.md, "review76"): scale-out and operations attacked as an
outsider: shards on one PostgreSQL, the database going away, metrics and logs, the stats
chart, the run lock."""

from __future__ import annotations

import asyncio
import fcntl
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.cards.chart import short_number
from bot.cli import main
from bot.discord_app import health
from bot.storage import Store
from bot.storage.backend import Migrate
from bot.storage.cli import on_store
from bot.storage.errors import StorageUnavailable
from bot.storage.postgres.backend import PostgresBackend
from bot.storage.sqlite.run_lock import bot_running_on, lock_path, one_bot_per_file

from .test_wait50 import _NotConnected

# -- The run lock: a lock file that is a symbolic link is not written through --

ELSEWHERE = "someone else's file\n"


def _planted(tmp_path: Path) -> tuple[Path, Path]:
    """A database path whose lock file is a link to another file: (database, that file)."""
    victim = tmp_path / "elsewhere.txt"
    victim.write_text(ELSEWHERE)
    database = tmp_path / "glossary.db"
    Path(lock_path(str(database))).symlink_to(victim)
    return database, victim


def _left_alone(database: Path, victim: Path) -> bool:
    return victim.read_text() == ELSEWHERE and Path(lock_path(str(database))).is_symlink()


@pytest.mark.parametrize("command", [False, True], ids=["bot", "command"])
async def test_a_lock_file_that_is_a_symlink_is_not_written_through(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, command: bool
) -> None:
    """E5: `glossary.db-bot.lock` made a symbolic link to another file (by anyone who may write
    in the database's folder: a shared volume, a folder of the operator's) had that file
    truncated and overwritten with the holder's name when a bot (or `prune --vacuum`,
    `migrate-db`, `restore`) started: a bot run as root cut /etc/passwd so. Now the link is
    not followed: the target stays as it was, and the bot runs unchecked, said in one line
    naming the link (as where no lock file can be made)."""
    database, victim = _planted(tmp_path)
    with caplog.at_level(logging.WARNING):
        async with one_bot_per_file(
            str(database), holder="glossary-bot shards all pid 1", wait=0, command=command
        ):
            pass
    assert _left_alone(database, victim)
    said = [r.getMessage() for r in caplog.records if "cannot check" in r.getMessage()]
    assert len(said) == 1, caplog.text
    assert "symbolic link" in said[0], said


def test_a_symlinked_lock_file_is_not_read_as_a_holder(tmp_path: Path) -> None:
    """E5: `bot_running_on` (prune --dry-run, stats' "a bot runs on it") read the link's
    target as the holder's name when another process held a lock on that target."""
    victim = tmp_path / "elsewhere.txt"
    victim.write_text("glossary-bot shards 0 pid 7 on elsewhere\n")
    database = tmp_path / "glossary.db"
    Path(lock_path(str(database))).symlink_to(victim)
    with victim.open("rb") as held:  # another open file: its lock conflicts with the look's
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        assert bot_running_on(str(database)) is None


# -- The stats chart: a count just under a million is not "1000k" --


@pytest.mark.parametrize(
    ("count", "shown"),
    [
        (9_999, "9,999"),
        (10_000, "10k"),
        (999_499, "999k"),
        (999_500, "1M"),
        (999_999, "1M"),
        (1_000_000, "1M"),
        (1_500_000, "1.5M"),
        (999_950_000, "1B"),
        (999_999_999_999, "1T"),
        (12_345_678, "12.3M"),
    ],
)
def test_a_count_is_shortened_to_the_unit_it_rounds_to(count: int, shown: str) -> None:
    """D1: `short_number` picked its unit before rounding: a top term looked up 999,500 to
    999,999 times was labelled "1000k" beside its bar in /stats' chart and `stats --chart`
    (and 999.95 million "1000M"). Now the unit is the one the rounded count fits."""
    assert short_number(count) == shown


# -- The command line's outputs: never written over the database --


def _counted_database(tmp_path: Path) -> Path:
    """A SQLite database with a count in it (server 5), the working folder its own."""

    async def put(store: Store) -> None:
        store.record_lookup(5, "rag")

    database = tmp_path / "glossary.db"
    on_store(str(database), put, migrate=Migrate.UPGRADE)
    return database


@pytest.mark.parametrize(
    "output",
    ["glossary.db", "./glossary.db", "link.db", "glossary.db-wal", "glossary.db-bot.lock"],
    ids=["itself", "another-spelling", "a-symlink-to-it", "its-wal", "its-lock-file"],
)
@pytest.mark.parametrize(
    "command",
    [("stats", "--chart"), ("terms", "export", "--guild", "5", "-o")],
    ids=["stats-chart", "terms-export"],
)
def test_an_output_that_is_the_database_is_refused_and_the_database_kept(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
    output: str,
) -> None:
    """D2: `stats --chart glossary.db` and `terms export -o glossary.db` (the database's own
    name typed for the output: a slip of the shell's completion) replaced the database with a
    PNG or a TOML file, exit 0: every count, alias and term gone, and a bot running on it
    answering from a file no longer there. Through a symbolic link the database was written
    over in place. Now refused in one line naming the output, before any work, exit 1, the
    database as it was (as `backup` refuses its own file)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    database = _counted_database(tmp_path)
    (tmp_path / "link.db").symlink_to(database)
    before = database.read_bytes()
    capsys.readouterr()
    status = main([*command, output, "--db", str(database)])
    said = capsys.readouterr()
    assert status == 1, said
    assert database.read_bytes() == before
    lines = said.err.splitlines()
    assert len(lines) == 1, said.err
    assert f"to {Path(output)}: the database" in lines[0], lines


# -- A database that hangs: the health check says so, not the bot down --

# A bound on the tests below, for the code before the fix: never reached by the code after.
HUNG_FOR_EVER = 30.0


async def _hung_store(
    tmp_path: Path,
) -> tuple[Store, list[object], asyncio.Event, asyncio.Event]:
    """A store whose writes wait for an event (a database that answers nothing: a server
    stopped with SIGSTOP, a network that drops packets): the writes begun, an event set as
    the first begins, and the event that lets them go on."""
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    backend: Any = store._backend
    answered, reached, begun = asyncio.Event(), asyncio.Event(), []
    write = backend.write

    async def hung(*args: object, **kwargs: object) -> object:
        begun.append(args)
        reached.set()
        await answered.wait()
        return await write(*args, **kwargs)

    backend.write = hung
    return store, begun, reached, answered


async def test_a_database_that_hangs_is_said_by_the_health_check_within_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """B4: PostgreSQL hung (SIGSTOP, a network dropping packets): the health check's probe
    write waited for COMMAND_TIMEOUT (60 s) behind the flush, itself 60 s: 80 s measured with
    no answer. The heartbeat waits for its reason, so its file went stale and `health` said
    "down: nothing from the bot for N s" of a bot answering /define, and the log said nothing
    of the database. Now the probe is waited for PROBE_WAIT (20 s), then said as not
    answering."""
    monkeypatch.setattr(health, "PROBE_WAIT", 0.05, raising=False)
    store, _, _, answered = await _hung_store(tmp_path)
    try:
        reason = await asyncio.wait_for(
            health.unhealthy_reason(_NotConnected(), store),  # type: ignore[arg-type]
            HUNG_FOR_EVER,
        )
        assert reason is not None
        assert f"the database at {store.location} is not writable: " in reason, reason
        assert "has not answered a write for 0.05 s" in reason, reason
    finally:
        answered.set()
        await store.close()


async def test_a_probe_waiting_for_the_database_is_shared_not_queued_again(
    tmp_path: Path,
) -> None:
    """B4: each heartbeat (10 s) and each metrics scrape asked the database again while the
    last probe still waited (the scrape's after 2 s, the heartbeat's after PROBE_WAIT), each
    one more write queued behind the one that hangs. Now a probe under way is the answer of
    every ask meanwhile: one write."""
    store, begun, reached, answered = await _hung_store(tmp_path)
    try:
        asks = [asyncio.ensure_future(store.why_not_writable()) for _ in range(3)]
        await reached.wait()  # the first ask reaches the backend
        for _ in range(20):
            await asyncio.sleep(0)  # the others, had they written
        assert len(begun) == 1
        answered.set()
        assert await asyncio.wait_for(asyncio.gather(*asks), HUNG_FOR_EVER) == [None] * 3
    finally:
        answered.set()
        await store.close()


class _NoConnection:
    """What asyncpg's `Pool.acquire()` returns (awaited, or entered as a context), for a new
    connection that has no answer: a bare TimeoutError at its connect timeout."""

    async def _timed_out(self) -> object:
        raise TimeoutError

    def __await__(self) -> Any:
        return self._timed_out().__await__()

    async def __aenter__(self) -> object:
        return await self._timed_out()

    async def __aexit__(self, *_: object) -> None:
        return None


class _HungPool:
    """A pool whose every connection is in use and whose new connection has no answer (the
    bot's connect timeout is busy_timeout, 5 s)."""

    def acquire(self) -> _NoConnection:
        return _NoConnection()

    async def release(self, _connection: object) -> None:
        raise AssertionError("nothing was acquired")


@pytest.mark.parametrize("kind", ["read", "write"])
async def test_a_connection_not_made_in_time_is_not_said_as_a_statement_of_60_s(kind: str) -> None:
    """B4: with PostgreSQL hung, a write that needed a new connection of the pool gave up at
    its connect timeout (5 s) and was said as "did not finish a statement within 60 s
    (COMMAND_TIMEOUT …): it is overloaded, or the statement too large": in `health` and the
    log, alternating with the true line. Now it says no connection was had in time."""
    backend = PostgresBackend("postgresql://bot:pw@db.example:5432/glossary", _HungPool())  # type: ignore[arg-type]

    async def body(_tx: object) -> None:
        raise AssertionError("no connection, no body")

    with pytest.raises(StorageUnavailable) as raised:
        await (backend.read(body) if kind == "read" else backend.write(body))
    said = str(raised.value)
    assert "did not finish a statement" not in said, said
    assert said.startswith(
        "cannot reach the database at postgresql://bot@db.example:5432/glossary: a new "
        "connection had no answer in time"
    ), said
