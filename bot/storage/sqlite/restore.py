"""Putting a backup in place of the database, without the old database's write-ahead log.

A bot that crashed (kill -9, an OOM kill) leaves `-wal` and `-shm` beside its file. A backup
copied over the file by hand is paired with that log at the next open, and SQLite applies it
over the copy: the changes made after the backup come back (a log of another database corrupts
it), in silence. SQLite cannot tell a log from another file, so the restore moves it away.
"""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path

from bot.reach import LOOP, symlink_loop

from ..errors import StorageError
from .backup import COMPANIONS, quick_check, reading
from .errors import SQLITE_ERRORS, cannot_open, reported
from .migrate import is_ours, latest_version

# Where the database a restore replaced is kept (its log beside it, under its own name).
KEPT_SUFFIX = ".before-restore"
# What is kept of a database: the file and its logs; `-shm` is an index SQLite rebuilds from the log.
_KEPT_FILES = ("", "-wal", "-journal")
_SUFFIXES = "|".join(map(re.escape, ("", *COMPANIONS)))
# Copies earlier restores kept (`….before-restore.N`) left beside the one a restore makes: the
# highest numbers. Each is a whole database: kept for ever, restores add up to a full disk.
KEPT_EARLIER = 3


@dataclass(frozen=True)
class Kept:
    """Where a restore kept what it replaced (None: there was no database), where the copy an
    earlier restore kept went, and the oldest copies removed to keep KEPT_EARLIER."""

    kept: Path | None = None
    earlier: Path | None = None
    removed: tuple[Path, ...] = ()
    # Copies that were symlinks (one moved to another disk by hand): the link removed, and the
    # database it points at, which stays (None: the link led through a loop, to no database).
    unlinked: tuple[tuple[Path, Path | None], ...] = ()


def is_sqlite_file(path: Path) -> bool:
    """Whether `path` starts as every SQLite database does (False if it cannot be read)."""
    try:
        with path.open("rb") as file:
            return file.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def check_backup(backup: Path) -> None:
    """Refuse a file that is no usable Glossary Bot database of this version or older."""
    if symlink_loop(backup):  # is_file() says False, as for nothing there
        raise StorageError(f"cannot read the backup {backup}: {LOOP}")
    if not backup.is_file():
        raise StorageError(f"there is no backup at {backup}")
    if not os.access(backup, os.R_OK):  # SQLite would say only "unable to open database file"
        why = cannot_open(backup) or "Permission denied"
        raise StorageError(f"cannot read the backup {backup}: {why}")
    try:
        with reading(backup) as source:
            version, app_id, objects = source.execute(
                "SELECT (SELECT user_version FROM pragma_user_version),"
                " (SELECT application_id FROM pragma_application_id),"
                " (SELECT count(*) FROM sqlite_schema)"
            ).fetchone()
            quick_check(source, backup)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise StorageError(f"{backup} is not a usable SQLite database: {reported(exc)}") from exc
    if not objects or not is_ours(version, app_id, objects):  # an empty file is no backup
        raise StorageError(f"{backup} is not a Glossary Bot database")
    if version > latest_version():
        raise StorageError(
            f"{backup} has schema version {version}, newer than this bot's {latest_version()} "
            "(made by a newer version)"
        )


def restore_file(backup: Path, database: Path) -> Kept:
    """Put a copy of `backup` at `database`, with no log of the old file beside it. The old
    database, if any, is kept at `database` + KEPT_SUFFIX with its log (hard links where the
    file system has them): nothing it held is lost. Returns where it is kept, where an earlier
    restore's kept copy went and which of the oldest were removed (`_keep`).

    The caller holds the file's run lock: no bot writes to it meanwhile."""
    database = database.resolve() if database.is_symlink() else database
    if backup.resolve() == database.resolve():
        raise StorageError("refusing to restore the database from itself")
    partial = database.with_name(f".{database.name}.restoring")
    partial.unlink(missing_ok=True)
    try:
        with reading(backup) as source:
            target = sqlite3.connect(partial)
            try:
                # The copy in SQLite's terms: a log beside `backup` read too; a snapshot alone in
                # a read-only folder read as a file that cannot change (no `-shm` can be made).
                source.backup(target)
                target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            finally:
                target.close()
        _sync(partial)
        kept = _keep(database, backup) if database.exists() else Kept()
        # The old log goes before the copy comes: a crash in between leaves the old file
        # without its log at the path (its whole state is kept), never the copy with it.
        for suffix in COMPANIONS:
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        partial.replace(database)
        _sync(database.parent)
        if kept.kept is not None and kept.earlier is not None:  # once all else is done
            removed, unlinked = _remove_oldest(kept.kept, backup)
            kept = replace(kept, removed=removed, unlinked=kept.unlinked + unlinked)
    except SQLITE_ERRORS as exc:
        said = reported(exc)
        raise StorageError(f"cannot write the restored copy beside {database}: {said}") from exc
    except OSError as exc:
        raise StorageError(f"cannot restore to {database}: {exc.strerror or exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return kept


def _keep(database: Path, backup: Path) -> Kept:
    """The database and its companions, under the kept name, and where an earlier kept copy
    went: to `….before-restore.N`, past the highest N, since it may be the only copy of what
    served before a first restore (the wrong backup, then the right one). Not when it is
    `backup` itself (undoing a restore): that is in place now."""
    kept = Path(f"{database}{KEPT_SUFFIX}")
    earlier: Path | None = None
    # A loop of links there holds no database: removed below like a dangling one, but said.
    unlinked = ((kept, None),) if symlink_loop(kept) else ()
    if kept.exists() and kept.resolve() != backup.resolve():
        # Past the highest, not into the first gap: once an old copy was removed, the next went
        # below older ones, and the newest was no longer the highest number.
        taken = _numbered(kept)
        earlier = Path(f"{kept}.{max(taken, default=0) + 1}")
        for suffix in _KEPT_FILES:
            if Path(f"{kept}{suffix}").exists():
                Path(f"{kept}{suffix}").rename(f"{earlier}{suffix}")
    for suffix in ("", *COMPANIONS):
        Path(f"{kept}{suffix}").unlink(missing_ok=True)
    for suffix in _KEPT_FILES:
        old = Path(f"{database}{suffix}")
        # An empty log (a read-only reader's, beside a stopped bot's file) holds nothing: not kept.
        if old.exists() and (not suffix or old.stat().st_size > 0):
            _link_or_copy(old, Path(f"{kept}{suffix}"))
    return Kept(kept, earlier, unlinked=unlinked)


def _numbered(kept: Path) -> dict[int, list[Path]]:
    """The copies earlier restores kept (`kept`.N and its logs), by N."""
    copies: dict[int, list[Path]] = {}
    for path in kept.parent.iterdir():
        # SQLite's companions only: a file beside them ("….1-good", kept by hand) is no log.
        named = re.fullmatch(rf"{re.escape(kept.name)}\.(\d+)({_SUFFIXES})", path.name)
        if named:
            copies.setdefault(int(named[1]), []).append(path)
    return copies


def _remove_oldest(
    kept: Path, backup: Path
) -> tuple[tuple[Path, ...], tuple[tuple[Path, Path | None], ...]]:
    """Remove the numbered copies below the KEPT_EARLIER highest (a copy being restored from
    stays): the databases removed, and the links removed with the databases they point at
    (which stay: unlinking a symlink removes the link alone)."""
    copies = _numbered(kept)
    removed: list[Path] = []
    unlinked: list[tuple[Path, Path | None]] = []
    for n in sorted(copies)[:-KEPT_EARLIER]:
        copy = Path(f"{kept}.{n}")
        if copy.exists() and copy.resolve() == backup.resolve():
            continue
        if symlink_loop(copy):  # resolve() raises on one (a traceback)
            unlinked.append((copy, None))
        elif copy.is_symlink():  # dangling too (its disk not mounted): where it points is said
            unlinked.append((copy, copy.resolve()))
        elif copy.exists():  # not its logs alone (the copy removed by hand)
            removed.append(copy)
        for path in copies[n]:
            path.unlink(missing_ok=True)
    return tuple(removed), tuple(unlinked)


def _link_or_copy(old: Path, new: Path) -> None:
    try:
        os.link(old, new)
    except OSError:  # a file system without hard links
        new.write_bytes(old.read_bytes())
        _sync(new)


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
