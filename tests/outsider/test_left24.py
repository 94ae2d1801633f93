"""Round 20's leftovers (task left24, PLAN.md "Round 20 plan"), each through the real command
line in a process of its own, on real SQLite files (a read-only folder without root's override,
a file-size limit for a full disk) and a PostgreSQL schema."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import subprocess
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.storage import AliasImport, StorageError, Store
from bot.storage.backend import Row, Tx
from bot.storage.errors import TargetFailed
from bot.storage.sqlite.run_lock import command_holder, one_bot_per_file
from tests.resilience.botproc import CLI_ENV, glossary_bot_run
from tests.resilience.conftest import without_permission_override

from .test_round20 import _database


async def _empty_database(path: Path) -> None:
    """A bot's database with nothing in it: a target a copy goes into without --force."""
    store = await Store.open(path, flush_interval=None)
    await store.close()


def _cli(
    cwd: Path,
    *args: str,
    prefix: Sequence[str] = (),
    file_size_limit: int | None = None,
    **settings: str,
) -> subprocess.CompletedProcess[str]:
    """`glossary-bot ARGS` in a process of its own; `prefix` runs it under `setpriv`, a
    `file_size_limit` makes a write past that many bytes fail as on a full disk."""
    env = {**CLI_ENV, **settings}
    return glossary_bot_run(env, cwd, *args, prefix=prefix, file_size_limit=file_size_limit)


def in_a_read_only_folder(
    folder: Path, *command: str, lookups: int = 1
) -> tuple[subprocess.CompletedProcess[str], bytes]:
    """`glossary-bot COMMAND`, run from `folder`'s parent with file modes enforced (root's
    too), while `folder` holds a bot's database `g.db` (`lookups` counts) alone and is
    read-only, as a snapshot is; with the file's bytes before it ran."""
    folder.mkdir()
    before = _database(folder / "g.db", lookups=lookups).read_bytes()
    folder.chmod(0o555)
    try:
        done = _cli(folder.parent, *command, prefix=without_permission_override())
    finally:
        folder.chmod(0o755)
    return done, before


def test_a_command_on_a_database_in_a_read_only_folder_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    """U2/U32: `prune --vacuum` and `migrate-db --from` on a database whose folder is read-only
    printed "cannot check that no other bot runs on ro/g.db (…-bot.lock: Permission denied)"
    and then the refusal that names the cause ("the database's folder is read-only"): two lines
    for one fault. Now the refusal alone; the file as it was. (`migrate-db --from` such a file
    now copies it: test_left25's read-only snapshot.)"""
    folder = tmp_path / "ro"
    command = ("prune", "--older-than", "30", "--vacuum", "--db", "ro/g.db")
    done, before = in_a_read_only_folder(folder, *command)
    assert done.returncode == 1, done
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"folder {folder} is read-only" in done.stderr, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before
    assert not (tmp_path / "copy.db").exists()


@pytest.mark.parametrize(
    "command",
    [
        ("prune", "--older-than", "30", "--vacuum", "--db", "g.db"),
        ("prune", "--older-than", "30", "--vacuum", "--dry-run", "--db", "g.db"),
        ("migrate-db", "--from", "g.db", "--to", "copy.db"),
    ],
    ids=["prune-vacuum", "dry-run", "migrate-db"],
)
async def test_a_command_refused_by_another_command_names_a_command_not_a_bot(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """U7: two `prune --vacuum` at once (cron runs that overlap): the later one was refused "a
    bot runs on this file (glossary-bot prune pid …)", sending the operator to look for a bot
    that is not running. The lock file says what holds it: now the refusal says a command."""
    db = await asyncio.to_thread(_database, tmp_path / "g.db")  # it runs a loop of its own
    async with one_bot_per_file(str(db), holder=command_holder("prune"), wait=0, command=True):
        done = await asyncio.to_thread(_cli, tmp_path, *command)
    assert done.returncode == 1, done
    assert done.stderr.count("\n") == 1, done.stderr
    assert "another command runs on this file (glossary-bot prune pid " in done.stderr, done.stderr
    assert "a bot runs" not in done.stderr, done.stderr


def test_a_copy_into_a_disk_that_fills_names_to(tmp_path: Path) -> None:
    """Round 20's summary: a SQLite -> SQLite copy into a disk that filled failed in one line,
    "the database or disk is full" (a file-size limit: "could not be written (disk I/O
    error)"), naming no file: the operator is left to guess which of the two. Now it names
    `--to`, as the other `--to` refusals do; nothing is left there."""
    _database(tmp_path / "old.db", lookups=20_000)
    done = _cli(
        tmp_path, "migrate-db", "--from", "old.db", "--to", "new.db", file_size_limit=300_000
    )
    assert done.returncode == 1, done
    assert done.stderr.startswith("glossary-bot: error: --to new.db: the database "), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "new.db").exists()


def test_a_copy_left_in_its_write_ahead_log_says_so(tmp_path: Path) -> None:
    """U33: a SQLite -> SQLite copy whose last checkpoint did not fit (an 8 MB tmpfs, 6.6 MB of
    rows) said "(checked)" and exit 0, leaving a 1.7 MB file and the rows in a 6.6 MB -wal:
    whole (SQLite reads them), but not the "compacted copy" the README describes, and a `cp`
    of the file alone loses them. The same happens while another connection reads the target
    (here, deterministically). Now a second line says the copy waits in the -wal and why."""
    _database(tmp_path / "old.db", lookups=2_000)
    target = tmp_path / "new.db"
    asyncio.run(_empty_database(target))
    with contextlib.closing(sqlite3.connect(target)) as reader:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM lookups").fetchone()  # a snapshot held
        done = _cli(tmp_path, "migrate-db", "--from", "old.db", "--to", "new.db")
        reader.rollback()
    assert done.returncode == 0, done
    assert "new.db now holds 2,000 lookups" in done.stdout, done.stdout
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("glossary-bot: warning: --to new.db: the copy is whole"), (
        done.stderr
    )
    assert "new.db-wal" in done.stderr, done.stderr
    with contextlib.closing(sqlite3.connect(target)) as conn:
        assert conn.execute("SELECT count(*) FROM lookups").fetchone() == (2_000,)


def test_health_reads_only_a_heartbeat_the_bot_wrote_and_prints_no_control_characters(
    tmp_path: Path,
) -> None:
    """U25: `health` read any file at HEARTBEAT_PATH as the bot's heartbeat: 3,000 random bytes
    said "healthy: last heartbeat 1 s ago; L…" (exit 0), and a second line with terminal
    escapes was printed raw (`\\e]0;…` retitles the operator's terminal). Now a file not in the
    bot's format is one line saying so (exit 1), and what the bot's format carries is printed
    with its control characters escaped."""
    beat = tmp_path / "heartbeat"
    beat.write_bytes(random.Random(25).randbytes(3_000))
    done = _cli(tmp_path, "health", HEARTBEAT_PATH=str(beat))
    assert done.returncode == 1, done
    assert done.stdout == "", done.stdout
    assert (
        done.stderr
        == f"HEARTBEAT_PATH={beat} is not a heartbeat the bot wrote: give the bot a file of its own\n"
    ), done.stderr

    beat.write_text(f"{time.time():.0f}\n\x1b]0;owned\x07 Discord's API is failing\n", "utf-8")
    done = _cli(tmp_path, "health", HEARTBEAT_PATH=str(beat))
    assert done.returncode == 0, done
    assert done.stdout.count("\n") == 1, done.stdout
    assert not any(c != "\n" and not c.isprintable() for c in done.stdout), done.stdout
    assert "Discord's API is failing" in done.stdout, done.stdout

    beat.write_text("unhealthy: the database at \x1b[2J is not writable\n", "utf-8")
    done = _cli(tmp_path, "health", HEARTBEAT_PATH=str(beat))
    assert done.returncode == 1, done
    assert not any(c != "\n" and not c.isprintable() for c in done.stderr), done.stderr
    assert done.stderr.startswith("unhealthy: the database at "), done.stderr


@pytest.mark.parametrize("path", [".", ""])
def test_a_postgresql_backup_into_a_folder_is_refused_as_sqlites_is(
    tmp_path: Path, path: str
) -> None:
    """U34: `backup .` (or `backup ""`) with DATABASE_URL set answered with a `pg_dump` line
    holding `--file=.`, which pg_dump then refuses, where SQLite's backup refuses the folder
    in one line naming PATH. Now PostgreSQL's answer is that same line."""
    url = "postgresql://glossary@127.0.0.1:1/glossary"
    done = _cli(tmp_path, "backup", path, DATABASE_URL=url)
    sqlite = _cli(tmp_path, "backup", path, "--db", str(_database(tmp_path / "g.db")))
    assert done.returncode == sqlite.returncode == 1, (done, sqlite)
    assert done.stderr == sqlite.stderr, (done.stderr, sqlite.stderr)
    assert done.stderr.startswith("glossary-bot: error: cannot write the backup to ."), done
    assert "pg_dump" not in done.stderr, done.stderr


def test_a_backup_of_a_database_in_a_read_only_folder_is_made(tmp_path: Path) -> None:
    """U32's other half: `backup` of a database in a read-only folder (a read-only snapshot,
    the file alone, no `-wal` beside it) was refused, "the database's folder is read-only
    (SQLite needs to create files beside the database)": SQLite's read of a WAL database
    makes its `-shm` there. With no file beside it nothing can be writing it (a write needs a
    `-wal` or `-journal` there), so it is read as it is: the backup is made, the folder as it
    was."""
    folder = tmp_path / "snapshot"
    done, _ = in_a_read_only_folder(
        folder, "backup", "copy.db", "--db", "snapshot/g.db", lookups=300
    )
    assert done.returncode == 0, done
    assert done.stdout == "backed up snapshot/g.db to copy.db\n", done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    with contextlib.closing(sqlite3.connect(tmp_path / "copy.db")) as copy:
        assert copy.execute("SELECT count(*) FROM lookups").fetchone() == (300,)
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_a_copy_whose_source_read_fails_names_the_source_not_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside item 3: the source's pages are read inside the target's transaction, so a source
    read that failed there (a damaged page met mid-copy) was told by the target's path ("new.db
    is damaged …") and, with the target's write failures now named `--to`, would have been
    blamed on `--to`. It is told by the source's own path, and the target is left empty."""
    from bot.storage.queries import copy as copy_queries

    source = await Store.open(tmp_path / "old.db", flush_interval=None)
    await source.import_aliases([AliasImport(1, "stash", "Stash", "rag")])
    target = await Store.open(tmp_path / "new.db", flush_interval=None)
    read_pages = copy_queries.pages

    async def damaged(tx: Tx, table: copy_queries.Table, size: int) -> AsyncIterator[list[Row]]:
        async for chunk in read_pages(tx, table, size):
            yield chunk
        if table.name == "aliases":  # met after a page: the damage SQLite finds mid-read
            malformed = sqlite3.DatabaseError("database disk image is malformed")
            malformed.sqlite_errorcode = sqlite3.SQLITE_CORRUPT  # as the driver sets them
            malformed.sqlite_errorname = "SQLITE_CORRUPT"
            raise malformed

    monkeypatch.setattr(copy_queries, "pages", damaged)
    try:
        with pytest.raises(StorageError) as raised:
            await source.copy_into(target)
        assert not isinstance(raised.value, TargetFailed), raised.value
        assert str(raised.value).startswith(f"{tmp_path / 'old.db'} is damaged"), raised.value
        assert await target.aliases(1) == {}
    finally:
        await source.close()
        await target.close()
