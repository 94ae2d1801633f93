"""SQLite's errors in the store's terms: what a moderator or an operator can act on."""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from pathlib import Path

from bot.reach import LOOP, deleted_folder, folder_of, unreachable

from ..errors import NotAGlossaryDatabase, StorageError, StorageUnavailable

# Primary result codes (the low byte of the extended code), from sqlite3.h.
_REASONS = {
    sqlite3.SQLITE_READONLY: "the database is read-only",
    sqlite3.SQLITE_BUSY: "the database is locked by another process",
    sqlite3.SQLITE_LOCKED: "the database is locked",
    sqlite3.SQLITE_FULL: "the database or disk is full",
    sqlite3.SQLITE_IOERR: "the database could not be written (disk I/O error)",
    sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened",
    sqlite3.SQLITE_PERM: "permission to the database was denied",
}

# What a SQLite call raises. Python's sqlite3 decodes SQLite's own error message as strict
# UTF-8: a message quoting a damaged schema's bytes ("malformed database schema (x) - near
# "\xf4\x9a"") raises UnicodeDecodeError in place of the sqlite3 error it was making.
SQLITE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, UnicodeDecodeError)
# How such an error is said (its own text is the codec's, about bytes nobody can act on).
_UNREADABLE_REPORT = "its schema is damaged: SQLite's report of it is not even UTF-8 text"

# After these the connection itself may be stuck (opened read-only, lost its file): reopen it.
REOPEN_AFTER = frozenset({sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR})


def reported(exc: Exception) -> str:
    """What SQLite said of `exc` (one of SQLITE_ERRORS), readable."""
    return _UNREADABLE_REPORT if isinstance(exc, UnicodeDecodeError) else str(exc)


def primary_code(exc: Exception) -> int | None:
    """The primary SQLite result code of an exception, when the driver recorded one."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


# SQLite could not make or grow the database's shared-memory file (`-shm`, the WAL's index),
# which a read needs as much as a write: the disk is full.
_SHARED_MEMORY_FULL = (
    "the disk holding the database is full: SQLite cannot make room for {shm}, which even a "
    "read needs; free some space there"
)
# Extended codes worth their own words ({shm}: the database's shared-memory file; {folder}: its
# folder, after a space).
_EXTENDED_REASONS = {
    "SQLITE_READONLY_DIRECTORY": (
        "the database's folder{folder} is read-only (SQLite needs to create files beside the "
        "database)"
    ),
    "SQLITE_IOERR_SHMOPEN": _SHARED_MEMORY_FULL,
    "SQLITE_IOERR_SHMSIZE": _SHARED_MEMORY_FULL,
}


def as_storage_error(exc: Exception, path: str | None = None) -> StorageError:
    """Translate a driver exception (one of SQLITE_ERRORS) into one a command handler can show
    to a moderator."""
    if isinstance(exc, UnicodeDecodeError):
        what = path or "the database file"
        return NotAGlossaryDatabase(f"{what} is damaged or not a SQLite database ({reported(exc)})")
    if primary_code(exc) == sqlite3.SQLITE_CANTOPEN and path is not None:
        why = cannot_open(Path(path))
        if why:
            return StorageUnavailable(f"the database file cannot be opened: {why}")
    name = getattr(exc, "sqlite_errorname", None)
    if isinstance(name, str) and name in _EXTENDED_REASONS:
        shm = f"{path}-shm" if path else "its -shm file"
        folder = f" {folder_of(Path(path))}" if path else ""
        return StorageUnavailable(_EXTENDED_REASONS[name].format(shm=shm, folder=folder))
    code = primary_code(exc)
    if code == sqlite3.SQLITE_READONLY and path is not None and (why := cannot_write(Path(path))):
        return StorageUnavailable(f"{_REASONS[code]}: {why}")
    if code in _REASONS:
        return StorageUnavailable(_REASONS[code])
    if code in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
        what = path or "the database file"
        return NotAGlossaryDatabase(f"{what} is damaged or not a SQLite database ({exc})")
    if undecodable := _NOT_UTF8.match(str(exc)):
        # Damage inside a stored text: quick_check reads no text, so nothing else says it.
        what = path or "the database file"
        return StorageError(
            f"{what} is damaged: a text in its column {undecodable[1]} is not UTF-8; restore "
            "it from a backup (glossary-bot restore)"
        )
    return StorageError(f"database error: {exc}")


# Python's sqlite3 (no SQLite result code) on a stored text that is not UTF-8.
_NOT_UTF8 = re.compile(r"Could not decode to UTF-8 column ('[^']*')")


def folder_not_file(path: Path) -> str:
    """Why a folder named as the database will not do, and what to name instead (the example
    is DATABASE_PATH's default name)."""
    return (
        f"is a folder, not a database file: name a file in it (such as {path / 'glossary-bot.db'})"
    )


# What else a path can name that no database can be: SQLite would read a fifo as an empty
# database that no write reaches ("disk I/O error"), and write its journal beside a device.
_NOT_FILES = (
    (stat.S_ISFIFO, "a fifo (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def not_a_file(path: Path) -> str | None:
    """What is at `path` when it is there and neither a file nor a folder (`folder_not_file`)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    what = next((what for kind, what in _NOT_FILES if kind(mode)), None)
    return f"is {what}, not a database file" if what else None


def not_a_database_file(path: Path) -> str | None:
    """Why `path`, there but no regular file, cannot be the database (a folder, a fifo, ...),
    or cannot be reached: the one wording every command and `run` give; None for a file or
    nothing there."""
    if why := unreachable(path):
        return f"cannot be reached: {why}"
    return folder_not_file(path) if path.is_dir() else not_a_file(path)


# A folder deleted under the running bot that the path still leads to (`deleted_folder`).
FOLDER_DELETED = (
    "its folder {folder} was deleted while the bot ran in it (a container's volume folder "
    "removed on the host, or the working folder of a relative DATABASE_PATH): nothing can be "
    "made there again; restart the bot with the folder in place"
)


def cannot_write(path: Path) -> str | None:
    """What in the file system keeps this process from writing the database at `path` (SQLite
    says only "readonly database"), or None: its file's mode or owner, a read-only volume.
    outsider77: a container restarted on a /data made read-only was "the database is
    read-only", where a file it cannot create names the folder and the user."""
    try:
        if not path.is_file():
            return None
        if os.statvfs(folder_of(path)).f_flag & os.ST_RDONLY:
            return f"it is on a read-only file system ({folder_of(path)})"
        if not os.access(path, os.W_OK):
            return f"the file {path} is not writable by this process (user {os.getuid()})"
    except OSError:
        return None
    return None


def cannot_open(path: Path) -> str | None:
    """What in the file system keeps this process from opening `path` (SQLite says only "unable
    to open"): the operator's volume, folder or file modes."""
    folder = folder_of(path)
    user = f"user {os.getuid()}"
    if why := unreachable(path):
        return f"it is reached through {LOOP}" if why == LOOP else why
    if path.is_dir():  # a volume's mount point named in place of a file in it
        return f"it {folder_not_file(path)}"
    if not folder.is_dir():
        return f"its folder {folder} does not exist"
    if deleted_folder(folder):
        return FOLDER_DELETED.format(folder=folder)
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        if os.statvfs(folder).f_flag & os.ST_RDONLY:  # a `:ro` volume: no owner could write it
            return f"its folder {folder} is on a read-only file system, where it cannot be created"
        return f"its folder {folder} is not writable by this process ({user}) to create it"
    if path.exists() and not os.access(path, os.R_OK):
        return f"the file {path} is not readable by this process ({user})"
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if wal.exists() and not shm.exists() and not os.access(folder, os.W_OK | os.X_OK):
        # a copy of a running bot's folder, made read-only without the disposable -shm
        return (
            f"its folder {folder} is read-only and holds its write-ahead log {wal.name} without "
            f"{shm.name}, which SQLite needs to read it: copy the folder somewhere writable first"
        )
    if path.exists() and os.statvfs(folder).f_flag & os.ST_RDONLY:
        # a volume a bot ran on, given again read-only (`:ro`)
        return f"it is on a read-only file system ({folder})"
    return None
