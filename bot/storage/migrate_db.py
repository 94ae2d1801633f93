"""`glossary-bot migrate-db --from <sqlite file> --to <postgresql url>`: move a bot's data over.

The arguments are declared in bot/cli.py. Everything is copied (counts per hour, misses with
first and last seen, aliases, server terms, suggestions, open term forms' drafts and both audit
logs) a page of rows at a time, so memory stays bounded however big the file, in one transaction on the target whose
tallies are compared before it commits: all of it is copied, or none. Run it while the bot is
stopped, so no count arrives in the old file after the copy: a bot running on either SQLite file
is refused, by the lock it holds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from bot.dburl import without_password
from bot.errors import print_error
from bot.sizes import said_count

from .backend import Migrate, is_database_url
from .errors import ShardsTaken, StorageError, TargetFailed, TargetNotEmpty
from .sqlite.backup import COMPANIONS, is_snapshot, readable_copy
from .sqlite.errors import not_a_database_file
from .sqlite.run_lock import command_holder, one_bot_per_file, what_runs
from .store import COPIED_TABLES, CopyReport, Store

if TYPE_CHECKING:
    from bot.progress import Progress


def run_migrate_db(args: argparse.Namespace) -> int:
    from bot.progress import Progress  # a command-line edge: storage itself stays below it

    from .cli import Interrupted  # beside the other commands' handlers, like Progress

    source = Path(args.source)
    target = args.target if is_database_url(args.target) else Path(args.target)
    if refusal := _refusal(args, source, target):
        return print_error(refusal)
    shown = without_password(args.target) if is_database_url(args.target) else args.target
    # A new SQLite file the copy makes: removed if the copy fails, as it was (not there)
    made = isinstance(target, Path) and not os.path.lexists(target)

    # Which file's lock is being taken: a bot that holds it is named with that argument
    locking: list[tuple[str, Path]] = []

    async def copy(progress: Progress) -> CopyReport:
        # The lock a running bot holds on a SQLite file: a bot serving the source keeps counts
        # it has not written yet, and writes after the copy; one serving the target would not
        # see what the copy adds; and none starts on either while it is copied.
        holder = command_holder("migrate-db")
        locking.append(("--from", source))
        async with (
            contextlib.nullcontext()  # no bot can run on a snapshot: it could not write there
            if is_snapshot(source)
            else one_bot_per_file(str(source), holder=holder, wait=0, command=True),
            readable_copy(source, f"--from {source}") as readable,
        ):
            if isinstance(target, Path):
                locking.append(("--to", target))
            async with (
                one_bot_per_file(str(target), holder=holder, wait=0, command=True)
                if isinstance(target, Path)
                else contextlib.nullcontext(),
                _removed_unless_done(target if made else None),
            ):
                locking.clear()
                origin = await Store.open(readable, flush_interval=None, migrate=Migrate.NEVER)
                try:
                    try:
                        # An older target is not upgraded (as the command line's other
                        # writes): an older bot may still serve it.
                        destination = await Store.open(
                            target,
                            flush_interval=None,
                            say_write_failures=False,
                            migrate=Migrate.CREATE_ONLY,
                        )
                    except StorageError as exc:
                        raise StorageError(f"--to: {exc}") from exc
                    try:
                        return await origin.copy_into(
                            destination,
                            force=args.force,
                            told=lambda what, done, rows: progress.show(
                                f"migrate-db: {what}", done, rows
                            ),
                        )
                    except asyncio.CancelledError:  # Ctrl-C: the copy rolls back at its next page
                        await destination.close()  # once it has
                        raise Interrupted(destination.writes_committed) from None
                    finally:
                        await destination.close()
                finally:
                    await origin.close()

    try:
        # Rows copied of all the rows, table by table, then the check.
        with Progress("migrate-db: reading", quiet=args.quiet) as progress:
            progress.update(0)
            report = asyncio.run(copy(progress))
    except ShardsTaken as exc:
        if not locking:  # not a file's lock: PostgreSQL's shards
            return print_error(str(exc))
        flag, path = locking[-1]
        running = ", ".join(exc.holders) or "another process"
        return print_error(
            f"{flag} {path}: {what_runs(running)} runs on this file ({running}); stop it first"
        )
    except TargetNotEmpty as exc:
        return print_error(f"--to {exc}")
    except TargetFailed as exc:
        return print_error(f"--to {shown}: {exc}")
    except StorageError as exc:
        return print_error(str(exc))
    after = report.target_after
    copied = report.source
    # Every table the copy checks, server terms and suggestions too: a line that named the
    # aliases' audit log alone read "0 audit entries" beside a term history that was copied.
    print(
        f"copied {source} to {shown}: {said_count(copied['lookup_total'], 'lookup')}, "
        f"{said_count(copied['misses'], 'missed query', 'missed queries')}, "
        f"{said_count(copied['aliases'], 'alias', 'aliases')}, "
        f"{said_count(copied['audit_log'], 'alias audit entry', 'alias audit entries')}, "
        f"{said_count(copied['terms'], 'server term')}, "
        f"{said_count(copied['term_audit_log'], 'term audit entry', 'term audit entries')}, "
        f"{said_count(copied['suggestions'], 'suggestion')}, "
        f"{said_count(copied['term_drafts'], 'form draft')}; "
        f"{shown} now holds {said_count(after['lookup_total'], 'lookup')}, "
        f"{said_count(after['aliases'], 'alias', 'aliases')}, "
        f"{said_count(after['terms'], 'server term')} "
        f"and {said_count(after['suggestions'], 'suggestion')} (checked)"
    )
    waiting = _left_in_log(target) if isinstance(target, Path) else 0
    if waiting:
        print(
            f"glossary-bot: warning: --to {shown}: the copy is whole, but {waiting:,} bytes of it "
            f"wait in {target}-wal: SQLite could not fold them into {target} as the copy ended "
            "(no room on its disk, or another connection reading it); they are folded in when "
            "it is next opened with room: until then keep the two files together (a copy of "
            f"{target} alone lacks them)",
            file=sys.stderr,
        )
    if any(report.target_before[table] for table in COPIED_TABLES):  # only with --force
        # Said, not undone: a count copied twice cannot be told from the target's own.
        print(
            f"--force: added to what {shown} already held (its lookups, missed searches, audit "
            "logs and suggestions now include this copy's; its own server terms and aliases "
            "kept); running the same copy again adds them again"
        )
    return 0


@contextlib.asynccontextmanager
async def _removed_unless_done(new_file: Path | None) -> AsyncIterator[None]:
    """The SQLite file the block makes at `new_file` (and its journals), removed if the block
    fails or is stopped: a copy that does not finish leaves no database where there was none."""
    try:
        yield
    except BaseException:
        if new_file is not None:
            for name in (new_file.name, *(new_file.name + end for end in COMPANIONS)):
                with contextlib.suppress(OSError):
                    (new_file.parent / name).unlink()
        raise


def _refusal(args: argparse.Namespace, source: Path, target: str | Path) -> str | None:
    """Why `--from` cannot be copied to `--to`, said before either is opened; None if it can."""
    if is_database_url(args.source):  # said without the URL: it may carry a password
        return "--from must be a SQLite file: copying out of PostgreSQL is pg_dump's work"
    if what := not_a_database_file(source):
        return f"--from {args.source} {what}"
    if not source.is_file():
        return f"--from must be an existing SQLite file; there is none at {args.source}"
    if not args.target.strip():  # the README's `--to "$DATABASE_URL"`, set in .env alone
        return (
            "--to is empty: give a postgresql:// URL or a SQLite file's path (a DATABASE_URL "
            "set in .env is the bot's setting, not the shell's $DATABASE_URL)"
        )
    if "://" in args.target and not is_database_url(args.target):  # a typo, not a file name
        return "--to must be a postgresql:// URL (or a SQLite file's path)"
    if isinstance(target, Path) and target.is_dir():
        return f"--to {target} is a folder: name a SQLite file"
    if isinstance(target, Path) and target.exists() and target.samefile(source):  # links too
        return f"--from and --to are the same file ({source}); nothing to copy"
    return None


def _left_in_log(target: Path) -> int:
    """The bytes of the copy left in the target's write-ahead log once it is closed: SQLite folds
    the log into the file as the last connection closes and removes it, unless that checkpoint
    cannot end (a full disk, a reader's snapshot); the rows are committed all the same."""
    try:
        return Path(f"{os.path.realpath(target)}-wal").stat().st_size
    except FileNotFoundError:
        return 0
