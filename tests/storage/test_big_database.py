"""A database that has grown for a long time, on each backend: `migrate-db`'s copy goes a page
of rows at a time (a page made small here) and is all or nothing; `prune` removes old counts a
batch at a time, each batch its own transaction, and nothing else."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import signal
import sqlite3
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.cli import main
from bot.storage import AliasImport, Store, SuggestStatus
from bot.storage.backend import Migrate
from bot.storage.cli import on_store
from bot.storage.periods import HOUR, to_unix
from bot.term_storage import TermChange, change_terms, read_terms
from tests.resilience.botproc import glossary_bot_run_here

from .conftest import Databases, FakeClock, OpenStore, names_in
from .test_migrate_db import ROOT, glossary_bot, glossary_bot_env
from .test_terms_store import term


def cli_here(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`glossary_bot` (test_migrate_db's, a process each) run in this process (named apart from
    botproc's `glossary_bot_here`, which takes the environment and says (status, output)): for
    the steps whose process is not the point (each process costs 1-2 s importing the bot, 5-8 s
    loaded). A command refused by a lock this process holds stays a process: another process's
    lock is what it checks; test_migrate_db keeps migrate-db's processes."""
    return glossary_bot_run_here(glossary_bot_env(), cwd, *args)


async def _grown(open_any: OpenStore, clock: FakeClock, path: Path | str) -> None:
    """Every table with more rows than a page of 2, several under one server (pages then
    continue inside a server's rows, on the later columns of the key)."""
    store = await open_any(str(path))
    for hours_ago in (24 * 60, 24 * 40, 30, 2):
        clock.advance(hours=-hours_ago)
        for i in range(9):
            store.record_lookup(i % 3, f"entry-{i % 4}")
        store.record_miss(1, "zorblax")
        store.record_miss(1, f"asked {hours_ago} hours ago")
        clock.advance(hours=hours_ago)
    await store.import_aliases([AliasImport(1, f"alias{n}", f"Alias{n}", "rag") for n in range(3)])
    await store.remove_alias(1, "alias0", actor_id=4)
    await change_terms(store, 1, lambda *_: (TermChange(put=(term(1), term(2), term(3))), None), 7)
    for user in (5, 6, 8):
        assert await store.add_suggestion(1, user, f"idea {user}", "Ours.") is SuggestStatus.ADDED
    await store.close()


async def _same(source_path: str, target_path: str, open_any: OpenStore) -> None:
    source, target = await open_any(source_path), await open_any(target_path)
    for scope in (None, 0, 1, 2):
        assert await target.stats(scope, limit=50) == await source.stats(scope, limit=50)
    assert await target.export_aliases() == await source.export_aliases()
    assert await target.audit_log(1) == await source.audit_log(1)
    assert await read_terms(target, 1) == await read_terms(source, 1)
    assert await target.term_audit_log(1) == await source.term_audit_log(1)
    assert await target.open_suggestions(1) == await source.open_suggestions(1)


async def test_a_copy_goes_a_page_at_a_time_and_is_exact(
    open_any: OpenStore, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    await _grown(open_any, clock, tmp_path / "source.db")
    source, target = await open_any(str(tmp_path / "source.db")), await open_any()
    told: list[tuple[str, int, int]] = []
    report = await source.copy_into(target, page=2, told=lambda *step: told.append(step))
    assert report.target_after == report.source
    await _same(str(tmp_path / "source.db"), location, open_any)
    # Never more than a page of rows between two steps; every row counted once.
    copied = [done for what, done, _ in told if what.startswith("copying ")]
    assert max(b - a for a, b in itertools.pairwise(copied)) <= 2
    rows = told[-1][2]
    assert told[-1] == ("checking", rows, rows)
    assert rows == sum(
        report.source[t] for t in ("lookups", "misses", "miss_hours", "aliases")
    ) + sum(report.source[t] for t in ("audit_log", "terms", "term_audit_log", "suggestions"))
    assert {what for what, _, _ in told} >= {"copying lookups", "copying suggestions"}


async def test_a_copy_stopped_part_way_leaves_the_target_as_it_was(
    open_any: OpenStore, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """One transaction on the target: a copy that fails after some pages (the connection lost,
    Ctrl-C) writes none of them, and the same copy can be run again as a first one."""
    await _grown(open_any, clock, tmp_path / "source.db")
    source, target = await open_any(str(tmp_path / "source.db")), await open_any()

    def stop_after_some_pages(what: str, done: int, rows: int) -> None:
        if what == "copying misses":  # the lookups are all written by now
            raise RuntimeError("the connection was lost")

    with pytest.raises(RuntimeError):
        await source.copy_into(target, page=2, told=stop_after_some_pages)
    assert (await target.stats(None)).total_lookups == 0
    assert await target.export_aliases() == []
    report = await source.copy_into(target, page=2)  # not refused as a target holding data
    assert report.target_before["lookups"] == 0
    await _same(str(tmp_path / "source.db"), location, open_any)


async def test_a_copy_cancelled_part_way_rolls_back_at_its_next_page(
    open_any: OpenStore, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """Ctrl-C in `migrate-db` cancels the copy, but its transactions run shielded from
    cancellation (a write is finished, never left half-done): a copy of minutes went on to
    the end, committed every row, and only then exited 130 without a word. Now it stops at
    its next page and rolls back (the command says "nothing was written")."""
    await _grown(open_any, clock, tmp_path / "source.db")
    source, target = await open_any(str(tmp_path / "source.db")), await open_any()
    lookups_copied = asyncio.Event()

    def told(what: str, done: int, rows: int) -> None:
        if what == "copying misses":
            lookups_copied.set()

    copy = asyncio.create_task(source.copy_into(target, page=2, told=told))
    await lookups_copied.wait()
    copy.cancel()
    with pytest.raises(asyncio.CancelledError):
        await copy
    await target.close()  # once the transaction under way has ended, however it ended
    assert (await (await open_any()).stats(None)).total_lookups == 0


async def test_a_missed_search_whose_old_hours_were_trimmed_copies_its_all_time_count(
    open_any: OpenStore, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """A missed search keeps its all-time count when its old hours are removed (README's trim,
    now `prune`). The copy wrote each search's count again as the sum of its hours: a search
    left without hours had a count of 0, which the target refuses, so such a file could not be
    copied at all (and one with some hours left would have lost the rest). Now the count is
    copied as it is."""
    source_path = tmp_path / "source.db"
    await _grown(open_any, clock, source_path)
    with sqlite3.connect(source_path) as conn:  # README's recipe, before `prune`
        before_hour = to_unix(clock() - timedelta(days=30)) // HOUR
        assert conn.execute("DELETE FROM miss_hours WHERE hour < ?", (before_hour,)).rowcount
    source, target = await open_any(str(source_path)), await open_any()
    report = await source.copy_into(target)
    assert report.target_after == report.source
    [zorblax] = [m for m in await target.top_misses(1) if m.query == "zorblax"]
    assert zorblax.count == 4


async def test_migrate_db_names_the_target_it_cannot_use(
    open_any: OpenStore, databases: Databases, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """An operator's one line names `--to` when the target holds data or cannot be reached."""
    await _grown(open_any, clock, tmp_path / "source.db")
    done = cli_here("migrate-db", "--from", str(tmp_path / "source.db"), "--to", location)
    assert done.returncode == 0, done.stderr
    again = cli_here("migrate-db", "--from", str(tmp_path / "source.db"), "--to", location)
    assert again.returncode == 1
    assert again.stderr.startswith("glossary-bot: error: --to "), again.stderr
    assert "already holds data (36 lookups" in again.stderr
    assert "--force" in again.stderr
    away = "postgresql://glossary:secret@127.0.0.1:1/glossary"
    gone = cli_here("migrate-db", "--from", str(tmp_path / "source.db"), "--to", away)
    assert gone.returncode == 1
    assert gone.stderr.startswith("glossary-bot: error: --to: cannot reach the database at "), (
        gone.stderr
    )
    assert gone.stderr.count("\n") == 1
    assert "secret" not in gone.stderr


# -- prune -------------------------------------------------------------------------------------


async def test_prune_removes_old_counts_and_misses_only(
    open_any: OpenStore, location: str, clock: FakeClock
) -> None:
    await _grown(open_any, clock, location)
    store = await open_any()
    kept_before = (
        await store.export_aliases(),
        await store.audit_log(1),
        await read_terms(store, 1),
        await store.term_audit_log(1),
        await store.open_suggestions(1),
    )
    month_ago = clock() - timedelta(days=30)
    recent = await store.stats(None, month_ago, limit=50)
    would = await store.old_rows(month_ago)
    assert would == {"lookups": 18, "miss_hours": 4, "misses": 2}
    told: list[tuple[str, int]] = []
    removed = await store.prune(month_ago, batch=2, told=lambda *step: told.append(step))
    assert removed == would
    assert ("lookups", 18) in told
    assert ("misses", 2) in told
    assert await store.old_rows(month_ago) == {"lookups": 0, "miss_hours": 0, "misses": 0}

    everything = await store.stats(None, limit=50)
    assert everything.total_lookups == recent.total_lookups == 18
    assert everything.top_terms == recent.top_terms
    # A search asked since keeps its all-time count; one asked only before is gone.
    misses = {m.query: m.count for m in everything.top_misses}
    assert misses == {"zorblax": 4, "asked 30 hours ago": 1, "asked 2 hours ago": 1}
    assert kept_before == (
        await store.export_aliases(),
        await store.audit_log(1),
        await read_terms(store, 1),
        await store.term_audit_log(1),
        await store.open_suggestions(1),
    )
    assert await store.prune(month_ago) == {"lookups": 0, "miss_hours": 0, "misses": 0}


async def test_prune_stopped_part_way_keeps_the_batches_it_finished(
    open_any: OpenStore, location: str, clock: FakeClock
) -> None:
    """Each batch is a transaction of its own (a running bot waits for one batch at most):
    stopped after some, those stay removed and the rest is still there, for a second run."""
    await _grown(open_any, clock, location)
    store = await open_any()
    month_ago = clock() - timedelta(days=30)

    def stop(table: str, removed: int) -> None:
        if removed >= 4:
            raise RuntimeError("Ctrl-C")

    with pytest.raises(RuntimeError):
        await store.prune(month_ago, batch=2, told=stop)
    assert (await store.old_rows(month_ago))["lookups"] == 18 - 4
    assert (await store.prune(month_ago))["lookups"] == 14


async def test_prune_on_the_command_line(
    open_any: OpenStore, databases: Databases, location: str, tmp_path: Path
) -> None:
    """One line per table, what is kept said; --dry-run removes nothing; bad input one line."""
    clock = FakeClock(datetime.now(UTC))
    store = await open_any(location, clock=clock)
    for days_ago in (400, 40, 1):
        clock.now = datetime.now(UTC) - timedelta(days=days_ago)
        for scope in (1, 2):
            store.record_lookup(scope, "rag")
            store.record_miss(scope, f"asked {days_ago} days ago")
    await store.close()

    dry = cli_here("prune", "--older-than", "30", "--dry-run", "--db", location, cwd=tmp_path)
    assert dry.returncode == 0, dry.stderr
    lines = dry.stdout.splitlines()
    assert lines[0].startswith("lookups: would remove 4 hourly lookup counts from before "), lines
    assert lines[1].startswith("miss_hours: would remove 4 hourly counts of missed searches ")
    assert lines[2].startswith("misses: would remove 4 missed searches last seen before ")
    assert lines[3] == (
        "kept: aliases, server terms, suggestions and both audit logs "
        "(--dry-run: nothing was removed)"
    )
    cut_off = datetime.now(UTC) - timedelta(days=30)
    assert f"{cut_off:%Y-%m-%d} " in lines[0]
    reader = await open_any(location)
    assert (await reader.stats(None)).total_lookups == 6

    done = cli_here("prune", "--older-than", "30", "--db", location, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("lookups: removed 4 hourly lookup counts ")
    assert done.stderr == ""  # no progress off a terminal
    assert (await reader.stats(None)).total_lookups == 2
    assert {m.query for m in (await reader.stats(None)).top_misses} == {"asked 1 days ago"}

    for bad in (["--older-than", "0"], ["--older-than", "a week"], []):
        refused = cli_here("prune", *bad, "--db", location, cwd=tmp_path)
        assert refused.returncode == 2, refused.stderr
        assert refused.stderr.count("\n") == 1, refused.stderr
        assert "--older-than" in refused.stderr


async def test_prune_keeps_a_missed_search_a_running_bot_sees_again_meanwhile(
    open_any: OpenStore, location: str, clock: FakeClock, postgres_only: None
) -> None:
    """review20: on PostgreSQL a batch's DELETE found its rows by a subquery alone: a missed
    search the running bot's flush saw again while the batch waited for the row removed it all
    the same (its new hour with it, by the foreign key), since PostgreSQL re-reads a row it
    waited for against the DELETE's own conditions only. The batch now checks the row again."""
    await _grown(open_any, clock, location)
    store = await open_any()
    month_ago = clock() - timedelta(days=30)
    now_hour = to_unix(clock()) // HOUR
    flush = await asyncpg.connect(location)  # the running bot's flush, half-way
    watch = await asyncpg.connect(location)  # outside it: activity is read afresh each time
    prune: asyncio.Task[dict[str, int]] | None = None
    try:
        seen = flush.transaction()
        await seen.start()
        await flush.execute(
            "UPDATE misses SET count = count + 1, last_seen = $1"
            " WHERE scope = 1 AND query = 'asked 1440 hours ago'",
            to_unix(clock()),
        )
        await flush.execute(
            "INSERT INTO miss_hours (scope, query, hour, count)"
            " VALUES (1, 'asked 1440 hours ago', $1, 1)",
            now_hour,
        )
        prune = asyncio.create_task(store.prune(month_ago))
        async with asyncio.timeout(30):  # bounds a hang; no speed to meet
            while not await watch.fetchval(  # noqa: ASYNC110  (the server's state: no event)
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND application_name = current_setting('application_name')"
            ):
                await asyncio.sleep(0.05)  # the poll's pace, not a synchronisation
        await seen.commit()
        removed = await prune
    finally:
        if prune is not None and not prune.done():
            prune.cancel()
        await flush.close()
        await watch.close()
    assert removed["misses"] == 1  # "asked 960 hours ago" only
    misses = {m.query: m.count for m in (await store.stats(None, limit=50)).top_misses}
    assert misses["asked 1440 hours ago"] == 2, misses
    recent = await store.stats(None, clock() - timedelta(hours=1), limit=50)
    assert "asked 1440 hours ago" in {m.query for m in recent.top_misses}


def test_ctrl_c_during_prune_says_what_it_removed_and_what_is_left(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """review20: Ctrl-C after prune's first batch said "interrupted after its changes were
    written in full", as a command of one transaction says; prune commits batch by batch, so
    the rest was still there. It now lists what it removed and says the rest is left."""
    import bot.storage.queries.prune as prune_queries

    db = tmp_path / "g.db"
    on_store(db, lambda store: store.stats(None), migrate=Migrate.CREATE_ONLY)
    old_hour = to_unix(datetime.now(UTC) - timedelta(days=400)) // HOUR
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?, 'rag', ?, 1)",
            [(scope, old_hour) for scope in (1, 2)],
        )
        conn.execute(
            "INSERT INTO misses (scope, query, count, first_seen, last_seen)"
            " VALUES (1, 'zorblax', 1, ?, ?)",
            (old_hour * HOUR, old_hour * HOUR),
        )
        conn.execute("INSERT INTO miss_hours VALUES (1, 'zorblax', ?, 1)", (old_hour,))
    remove_old = prune_queries.remove_old
    pressed: list[bool] = []

    async def ctrl_c_in_the_first_batch(*args: Any, **kwargs: Any) -> int:
        if not pressed:  # the operator's Ctrl-C, once, while the first batch is written
            pressed.append(True)
            signal.raise_signal(signal.SIGINT)
        return await remove_old(*args, **kwargs)

    monkeypatch.setattr(prune_queries, "remove_old", ctrl_c_in_the_first_batch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")

    status = main(["prune", "--older-than", "30", "--db", str(db), "--quiet"])
    said = capsys.readouterr()
    assert status == 130, said
    assert said.out.startswith("lookups: removed 1 hourly lookup count from before "), said
    assert "in full" not in said.err, said
    assert said.err.startswith("glossary-bot: interrupted part-way"), said
    assert "run it again" in said.err, said
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM lookups").fetchone() == (1,)
        assert conn.execute("SELECT count(*) FROM misses").fetchone() == (1,)


async def _fail_deleting_misses(databases: Databases, location: str) -> None:
    """The database refuses to remove a missed search (the third of prune's tables), as a disk
    failing or a lock held past the timeout would: a real error, from the database itself."""
    if databases.backend == "sqlite":
        with sqlite3.connect(location) as conn:
            conn.execute(
                "CREATE TRIGGER refuse BEFORE DELETE ON misses"
                " BEGIN SELECT RAISE(ABORT, 'the disk failed'); END"
            )
        return
    conn = await asyncpg.connect(location)
    try:
        await conn.execute(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'the disk failed'; END $$;"
            " CREATE TRIGGER refuse BEFORE DELETE ON misses"
            " FOR EACH ROW EXECUTE FUNCTION refuse()"
        )
    finally:
        await conn.close()


async def test_prune_failing_part_way_says_what_it_removed_and_that_the_rest_is_untouched(
    open_any: OpenStore, databases: Databases, location: str, clock: FakeClock, tmp_path: Path
) -> None:
    """left21: a database error part-way through `prune` printed only the error, though the
    tables before it were pruned (each batch commits). Now the tables already pruned are listed
    as a finished prune lists them, and one line says the error and that the rest is untouched;
    the exit status is not 0."""
    clock.now = datetime.now(UTC)  # the command line prunes by this machine's clock
    await _grown(open_any, clock, location)
    await _fail_deleting_misses(databases, location)
    failed = cli_here("prune", "--older-than", "30", "--db", location, cwd=tmp_path)
    assert failed.returncode == 1, failed
    lines = failed.stdout.splitlines()
    assert [line.split(" from before ")[0] for line in lines] == [
        "lookups: removed 18 hourly lookup counts",
        "miss_hours: removed 4 hourly counts of missed searches",
    ], failed.stdout
    # One line on either backend (left23: SQLite's own log line for a bot came first).
    [said] = failed.stderr.splitlines()
    assert said.startswith("glossary-bot: error: "), failed.stderr
    assert "the disk failed" in said, failed.stderr
    assert said.endswith("what is listed was removed, the rest is untouched (run it again)"), said
    store = await open_any()
    month_ago = datetime.now(UTC) - timedelta(days=30)
    assert await store.old_rows(month_ago) == {"lookups": 0, "miss_hours": 0, "misses": 2}


async def _old_and_new_rows(db: Path) -> None:
    """A SQLite file of 20,000 hourly counts from a year ago, 10 from today, and an alias."""
    store = await Store.open(db, flush_interval=None)
    await store.import_aliases([AliasImport(1, "stash", "Stash", "rag")])
    await store.close()
    old_hour = to_unix(datetime.now(UTC) - timedelta(days=400)) // HOUR
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:  # closed: all in the file
        conn.executemany(
            "INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?, ?, ?, 1)",
            [(n % 50, f"entry-{n // 50:04d}-{'x' * 40}", old_hour) for n in range(20_000)],
        )
        conn.executemany(
            "INSERT INTO lookups (scope, entry_id, hour, count) VALUES (?, 'rag', ?, 1)",
            [(n, old_hour + 400 * 24) for n in range(10)],
        )


async def test_prune_vacuum_gives_a_sqlite_file_its_space_back_and_waits_for_no_bot(
    tmp_path: Path,
) -> None:
    """left21: `prune` left a SQLite file its size (SQLite reuses the space for new rows), and
    the README's `VACUUM;` in sqlite3 said to stop the bot first with nothing to check it. Now
    `prune --vacuum` rewrites the file after pruning: refused in one line, before removing
    anything, while a bot runs on it (the lock file a running bot holds says which); the file
    smaller after, every row kept kept, the database sound."""
    from bot.storage.sqlite.run_lock import one_bot_per_file

    db = tmp_path / "g.db"
    await _old_and_new_rows(db)

    def count(sql: str) -> object:
        with sqlite3.connect(db) as conn:
            return conn.execute(sql).fetchone()

    async with one_bot_per_file(str(db), holder="glossary-bot run pid 4242 on host", wait=0):
        refused = glossary_bot("prune", "--older-than", "30", "--vacuum", "--db", str(db))
    assert refused.returncode == 1, refused
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "a bot runs on this file (glossary-bot run pid 4242 on host)" in refused.stderr
    assert "--vacuum" in refused.stderr
    assert count("SELECT count(*) FROM lookups") == (20_010,)

    before = db.stat().st_size
    done = cli_here("prune", "--older-than", "30", "--vacuum", "--db", str(db))
    assert done.returncode == 0, done
    after = db.stat().st_size
    assert after < before / 2, (before, after)
    assert done.stdout.splitlines()[0].startswith("lookups: removed 20,000 hourly lookup counts")
    assert f"vacuum: the file went from {before:,} bytes to {after:,}" in done.stdout, done.stdout
    assert count("SELECT count(*), sum(count) FROM lookups") == (10, 10)
    assert count("SELECT key, entry_id FROM aliases") == ("stash", "rag")
    assert count("PRAGMA integrity_check") == ("ok",)


async def test_prune_vacuum_dry_run_says_what_the_vacuum_would_do_and_writes_nothing(
    tmp_path: Path,
) -> None:
    """left22: `prune --vacuum --dry-run` listed the rows it would remove and said nothing of
    the vacuum, not even that a bot running on the file would have it refused. Now one line
    says it: the refusal as the command without --dry-run says it (exit 1), else that the file
    would be rewritten (its size now); the folder and the file as they were either way."""
    from bot.storage.sqlite.run_lock import one_bot_per_file

    db = tmp_path / "g.db"
    await _old_and_new_rows(db)
    args = ("prune", "--older-than", "30", "--vacuum", "--dry-run", "--db", str(db))

    def state() -> tuple[list[str], bytes]:
        return sorted(p.name for p in tmp_path.iterdir()), db.read_bytes()

    async with one_bot_per_file(str(db), holder="glossary-bot run pid 4242 on host", wait=0):
        was = state()
        refused = glossary_bot(*args)
        assert state() == was
    assert refused.returncode == 1, refused
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "a bot runs on this file (glossary-bot run pid 4242 on host)" in refused.stderr
    assert "--vacuum needs it stopped" in refused.stderr, refused.stderr

    (tmp_path / "g.db-bot.lock").unlink()  # the test's own bot's, gone as if never run
    was = state()
    told = cli_here(*args)
    assert told.returncode == 0, told
    assert state() == was
    assert told.stdout.splitlines()[0].startswith("lookups: would remove 20,000 hourly lookup")
    [vacuum] = [line for line in told.stdout.splitlines() if line.startswith("vacuum:")]
    assert f"would then rewrite the file ({len(was[1]):,} bytes now)" in vacuum, vacuum


async def test_migrate_db_to_a_sqlite_file_says_counts_as_prune_does_and_leaves_no_lock(
    tmp_path: Path,
) -> None:
    """left22: migrate-db's summary said "20010 lookups" where prune says "20,000", and left
    the `<target>-bot.lock` it made beside a SQLite target (and the source's) after it ended.
    Now its counts carry thousands separators and the lock files it made are gone; a lock file
    that was there before (a bot ran on the file once) is left."""
    source, target = tmp_path / "old.db", tmp_path / "new.db"
    await _old_and_new_rows(source)
    assert names_in(tmp_path) == ["old.db"]
    done = cli_here("migrate-db", "--from", str(source), "--to", str(target))
    assert done.returncode == 0, done
    assert "20,010 lookups" in done.stdout, done.stdout
    assert names_in(tmp_path) == ["new.db", "old.db"]

    (tmp_path / "newer.db-bot.lock").write_text("glossary-bot run pid 4242 on host")
    again = cli_here("migrate-db", "--from", str(source), "--to", str(tmp_path / "newer.db"))
    assert again.returncode == 0, again
    assert names_in(tmp_path) == ["new.db", "newer.db", "newer.db-bot.lock", "old.db"]


async def test_prune_vacuum_leaves_no_lock_file_it_made(tmp_path: Path) -> None:
    """left23: `prune --vacuum` left the `<db>-bot.lock` it took beside the file after it ended,
    where migrate-db removes the ones it made. Now it goes too; a lock file that was there
    before (a bot ran on the file once) is left."""
    db = tmp_path / "g.db"
    await _old_and_new_rows(db)
    assert names_in(tmp_path) == ["g.db"]
    done = cli_here("prune", "--older-than", "30", "--vacuum", "--db", str(db))
    assert done.returncode == 0, done
    assert names_in(tmp_path) == ["g.db"]

    (tmp_path / "g.db-bot.lock").write_text("glossary-bot run pid 4242 on host")
    again = cli_here("prune", "--older-than", "30", "--vacuum", "--db", str(db))
    assert again.returncode == 0, again
    assert names_in(tmp_path) == ["g.db", "g.db-bot.lock"]


async def test_a_bot_waiting_on_a_lock_file_a_command_removes_locks_the_new_one(
    tmp_path: Path,
) -> None:
    """A command removes the lock file it made while it still holds it: a bot that opened it
    meanwhile and waits (a restart's wait) then locks the removed file, so it takes the new
    one at the path, and a second bot is still refused."""
    from bot.storage.errors import ShardsTaken
    from bot.storage.sqlite.run_lock import one_bot_per_file

    db = str(tmp_path / "g.db")
    sqlite3.connect(db).close()
    waiting, holding, done = asyncio.Event(), asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()

    class Waiting(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "waiting up to" in record.getMessage():
                loop.call_soon_threadsafe(waiting.set)

    async def bot() -> None:
        async with one_bot_per_file(db, holder="the bot", wait=30):
            holding.set()
            await done.wait()

    logging.getLogger("bot.storage.sqlite.run_lock").addHandler(watch := Waiting())
    try:
        async with one_bot_per_file(db, holder="migrate-db", wait=0, command=True):
            started = asyncio.create_task(bot())
            await waiting.wait()  # the bot has the command's lock file open
        await holding.wait()
        assert await asyncio.to_thread(Path(f"{db}-bot.lock").read_text) == "the bot"
        with pytest.raises(ShardsTaken):
            async with one_bot_per_file(db, holder="a second bot", wait=0):
                pass
    finally:
        logging.getLogger("bot.storage.sqlite.run_lock").removeHandler(watch)
        done.set()
    await started


async def test_prune_vacuum_kept_from_its_end_by_a_reader_says_so_and_not_part_way(
    tmp_path: Path,
) -> None:
    """review21: a connection reading the file while `prune --vacuum` ran (a sqlite3 shell, a
    `backup`, another command: the bot's lock keeps only bots out) kept the rewritten file in
    its -wal (the checkpoint was busy), yet the command said "vacuum: the file went from N
    bytes to N" and exit 0, the disk fuller than before. And a vacuum failing after a finished
    prune was told as "stopped part-way ... the rest is untouched". Now: the pruned rows listed
    as done, one error line saying the vacuum did not give the space back and why, exit 1."""
    db = tmp_path / "g.db"
    await _old_and_new_rows(db)
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as reader:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM aliases").fetchone()  # a read transaction open
        done = glossary_bot("prune", "--older-than", "30", "--vacuum", "--db", str(db))
    assert done.returncode == 1, done
    assert done.stdout.splitlines()[0].startswith("lookups: removed 20,000 hourly lookup counts")
    assert "vacuum: the file went from" not in done.stdout, done.stdout
    [said] = [line for line in done.stderr.splitlines() if line.startswith("glossary-bot:")]
    assert "part-way" not in said, said
    assert "untouched" not in said, said
    assert "another connection was reading" in said, said
    assert f"{db}-wal" in said, said
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT count(*) FROM lookups").fetchone() == (10,)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_ctrl_c_during_prune_vacuum_says_what_was_done(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """review21: Ctrl-C once the prune had finished, as its vacuum began, ended the command
    with status 130 and not a word: every old row removed, the file rewritten (VACUUM runs in a
    thread nothing stops), and the operator told nothing of either. Now the vacuum under way
    is finished (the lock held until it is), then everything done is listed and one line says
    the Ctrl-C came during the vacuum."""
    import bot.storage.cli as storage_cli

    db = tmp_path / "g.db"
    asyncio.run(_old_and_new_rows(db))
    vacuum_database = storage_cli.vacuum_database

    async def ctrl_c_as_it_starts(path: Path) -> tuple[int, int]:
        signal.raise_signal(signal.SIGINT)  # the operator's Ctrl-C, as the vacuum begins
        return await vacuum_database(path)

    monkeypatch.setattr(storage_cli, "vacuum_database", ctrl_c_as_it_starts)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    before = db.stat().st_size

    status = main(["prune", "--older-than", "30", "--vacuum", "--db", str(db), "--quiet"])
    said = capsys.readouterr()
    assert status == 130, said
    assert said.out.startswith("lookups: removed 20,000 hourly lookup counts"), said
    after = db.stat().st_size
    assert f"vacuum: the file went from {before:,} bytes to {after:,}" in said.out, said
    assert said.err.startswith("glossary-bot: interrupted during the vacuum"), said
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT count(*) FROM lookups").fetchone() == (10,)


async def test_prune_vacuum_on_postgresql_is_left_to_autovacuum(
    databases: Databases, location: str, postgres_only: None, tmp_path: Path
) -> None:
    """On PostgreSQL `--vacuum` is refused in one line, before removing anything: autovacuum
    makes the removed rows' space reusable there, and VACUUM is the operator's own to run."""
    refused = cli_here("prune", "--older-than", "30", "--vacuum", "--db", location, cwd=tmp_path)
    assert refused.returncode == 1, refused
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "autovacuum" in refused.stderr, refused.stderr
