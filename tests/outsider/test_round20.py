"""Outsider round 20 (PLAN.md, "Round 20 plan"): what rounds 18-21 added, attacked from the
command line as an operator runs it: `migrate-db` refused, failing or stopped, on real SQLite
files, each through the real entry point in a process of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
from pathlib import Path

from bot.storage import AliasImport, Store
from tests.resilience.botproc import CLI_ENV, glossary_bot_run

ROOT = Path(__file__).resolve().parents[2]


def _migrate_db(
    cwd: Path, *args: str, file_size_limit: int | None = None
) -> subprocess.CompletedProcess[str]:
    """`glossary-bot migrate-db ARGS`; a disk that fills, as a file-size limit."""
    env = {**CLI_ENV, "PYTHONPATH": str(ROOT)}
    return glossary_bot_run(env, cwd, "migrate-db", *args, file_size_limit=file_size_limit)


def _database(path: Path, lookups: int = 1) -> Path:
    """A bot's SQLite file with an alias and `lookups` hourly counts."""

    async def made() -> None:
        store = await Store.open(path, flush_interval=None)
        await store.import_aliases([AliasImport(1, "stash", "Stash", "rag")])
        await store.close()

    asyncio.run(made())
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.executemany(
            "INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?, ?, ?, 1)",
            [(n % 50, f"entry-{n // 50:05d}-{'x' * 40}", 490_000) for n in range(lookups)],
        )
    return path


def _beside(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_migrate_db_refused_or_failing_leaves_no_lock_files_behind(tmp_path: Path) -> None:
    """U10, U11, U14, U18: `migrate-db` removes the `-bot.lock` files it made when the copy is
    done (left22), but a copy refused (a target holding data, a target that is no database) or
    failing left `<from>-bot.lock` and `<to>-bot.lock` beside the files for good. Now they go
    whichever way the command ends."""
    _database(tmp_path / "old.db")
    _database(tmp_path / "full.db")
    (tmp_path / "notes.txt").write_text("my notes\n")
    before = _beside(tmp_path)
    for target in ("full.db", "notes.txt"):
        done = _migrate_db(tmp_path, "--from", "old.db", "--to", target)
        assert done.returncode == 1, done
        assert done.stderr.count("\n") == 1, done.stderr
        assert _beside(tmp_path) == before, done.stderr
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"


def test_a_migrate_db_into_a_new_file_that_fills_leaves_no_file_at_to(tmp_path: Path) -> None:
    """U10: a copy into a new SQLite file on a disk that filled (here a file-size limit) said
    it failed, but left a database at `--to` (its tables, none of the rows, and its -wal and
    -shm), where the README says a copy that fails "leaves the target as it was": there was
    none. Now the file it made goes with the failure; run again with room, it copies."""
    _database(tmp_path / "old.db", lookups=20_000)
    before = _beside(tmp_path)
    failed = _migrate_db(tmp_path, "--from", "old.db", "--to", "new.db", file_size_limit=300_000)
    assert failed.returncode == 1, failed
    assert _beside(tmp_path) == before, failed.stderr
    done = _migrate_db(tmp_path, "--from", "old.db", "--to", "new.db")
    assert done.returncode == 0, done
    assert "new.db now holds 20,000 lookups" in done.stdout, done.stdout


def test_a_migrate_db_from_a_postgresql_url_never_repeats_its_password(tmp_path: Path) -> None:
    """U12: `migrate-db --from postgresql://user:secret@host/db` (PostgreSQL to SQLite, which
    it does not do) answered "there is none at postgresql://user:secret@…": the password on
    the terminal and in cron's mail, where the README says URLs never carry it into a line."""
    url = "postgresql://glossary:hunter2secret@127.0.0.1:1/glossary"
    done = _migrate_db(tmp_path, "--from", url, "--to", "copy.db")
    assert done.returncode == 1, done
    assert "hunter2secret" not in done.stdout + done.stderr, done.stderr
    assert done.stderr.startswith("glossary-bot: error: --from must be"), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "copy.db").exists()


def test_a_migrate_db_onto_a_hard_link_of_its_source_says_it_is_the_same_file(
    tmp_path: Path,
) -> None:
    """U15: `--to` a hard link of `--from` was refused as "a bot runs on this file (a bot on
    another name of this file (a hard link)); stop it first": no bot ran, the lock it met was
    the command's own on `--from`. Now the same answer as for the same path or a symlink."""
    source = _database(tmp_path / "s.db")
    os.link(source, tmp_path / "h.db")
    done = _migrate_db(tmp_path, "--from", "s.db", "--to", "h.db", "--force")
    assert done.returncode == 1, done
    assert done.stderr == (
        "glossary-bot: error: --from and --to are the same file (s.db); nothing to copy\n"
    ), done.stderr


def test_a_migrate_db_refused_for_data_says_its_counts_as_the_copy_does(tmp_path: Path) -> None:
    """U14: the copy's line says "605,001 lookups" (left22), its refusal of a target holding
    data "605001 lookups". Now with the thousands separated there too."""
    _database(tmp_path / "old.db")
    _database(tmp_path / "full.db", lookups=1_234)
    done = _migrate_db(tmp_path, "--from", "old.db", "--to", "full.db")
    assert done.returncode == 1, done
    assert "already holds data (1,234 lookups, " in done.stderr, done.stderr


def test_the_readmes_migrate_db_line_with_database_url_only_in_env_is_one_line(
    tmp_path: Path,
) -> None:
    """U28: the README's `glossary-bot migrate-db --from glossary-bot.db --to "$DATABASE_URL"`,
    typed as printed where DATABASE_URL is set in `.env` (as the README sets it up) and not in
    the shell: `--to ""`, and a traceback ending "ValueError: PosixPath('.') has an empty
    name"; `--to .` the same, and `--to` a blank name made a database called " ". Now one
    line saying `--to` is empty (or a folder), nothing written."""
    _database(tmp_path / "glossary-bot.db")
    (tmp_path / ".env").write_text("DATABASE_URL=postgresql://glossary@127.0.0.1:1/glossary\n")
    before = _beside(tmp_path)
    for target in ("", " ", ".", str(tmp_path)):
        done = _migrate_db(tmp_path, "--from", "glossary-bot.db", "--to", target)
        assert done.returncode == 1, (target, done)
        assert done.stderr.count("\n") == 1, (target, done.stderr)
        assert done.stderr.startswith("glossary-bot: error: --to "), (target, done.stderr)
        assert _beside(tmp_path) == before, target
    empty = _migrate_db(tmp_path, "--from", "glossary-bot.db", "--to", "")
    assert "DATABASE_URL" in empty.stderr, empty.stderr


async def test_a_backup_onto_the_database_of_a_running_bot_is_refused(tmp_path: Path) -> None:
    """U20: `glossary-bot backup bot.db --db other.db` (the arguments the wrong way round, or
    the wrong folder's file) while a bot runs on bot.db: "backed up other.db to bot.db", exit
    0, and the running bot's database was replaced under it (its aliases and counts gone; the
    bot's log guessed "a restored backup?"). Now refused in one line naming PATH and the bot,
    the file untouched."""
    from bot.storage.sqlite.run_lock import one_bot_per_file

    live = await asyncio.to_thread(_database, tmp_path / "bot.db", 3)
    await asyncio.to_thread(_database, tmp_path / "other.db")
    before = live.read_bytes()
    async with one_bot_per_file(str(live), holder="glossary-bot run pid 4242 on host", wait=0):
        env = {**CLI_ENV, "PYTHONPATH": str(ROOT)}
        backup = ("backup", "bot.db", "--db", "other.db")
        done = await asyncio.to_thread(glossary_bot_run, env, tmp_path, *backup)
    assert done.returncode == 1, done
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("glossary-bot: error: cannot write the backup to bot.db: "), (
        done.stderr
    )
    assert "glossary-bot run pid 4242 on host" in done.stderr, done.stderr
    assert live.read_bytes() == before
