"""One bot per SQLite file. Two `glossary-bot run` on one file would both take every
interaction (each counting it, both answering), so a bot holds an exclusive lock on a file
beside the database while it runs, which names it to a bot refused. The kernel lets go of it
when the process ends, even by `kill -9`, so a crash never blocks a restart. A hard link is
another path to the same file, with a lock file of its own: so the bot also locks one byte of
the database file itself, a byte SQLite never locks (SQLite's own locks are not touched)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import struct
from collections.abc import AsyncIterator
from pathlib import Path

from bot import this_process

from ..errors import ShardsTaken

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.25  # how often a starting bot looks again while waiting for one stopping
# SQLite locks the 512 bytes from 1 GiB (its "pending byte" on); this one is clear of them.
FILE_LOCK_BYTE = 0x40000000 + 1024
BY_ANOTHER_NAME = "a bot on another name of this file (a hard link)"


# The commands that hold a file's lock as a bot does (`command_holder`): a refusal names them
# as commands, not as a bot someone must go and stop.
COMMANDS = ("prune", "migrate-db", "restore")


def command_holder(command: str) -> str:
    """How a command names itself in the lock file, as a bot names itself by its shards."""
    assert command in COMMANDS, command
    return f"glossary-bot {command} {this_process.named()}"


def what_runs(holder: str) -> str:
    """What holds a file, by the name in its lock file: "another command" or "a bot"."""
    by_command = holder.startswith(tuple(f"glossary-bot {name} pid " for name in COMMANDS))
    return "another command" if by_command else "a bot"


def lock_path(database: str) -> str:
    # Beside the file itself: a symlink to the database (or another spelling of its path) must
    # find the same lock, or a second bot starts on the same file through it.
    return f"{os.path.realpath(database)}-bot.lock"


@contextlib.asynccontextmanager
async def one_bot_per_file(
    database: str,
    *,
    holder: str,
    wait: float,
    close_later: list[int] | None = None,
    command: bool = False,
) -> AsyncIterator[None]:
    """While the block runs, no other bot runs on `database`: `ShardsTaken` naming the bot that
    does, after waiting up to `wait` seconds for it to stop (a restart). Where the lock file
    cannot be made (a read-only folder) the bot runs unchecked, and says so.

    Closing any descriptor of the database file lets go of every lock this process's SQLite
    holds on it: with `close_later` (a store still open after the block) the descriptor the
    file itself is locked by is kept there, for the store to close after its connections (and
    to move to the file that replaces it: `relock_itself`). A `command` (not a bot) removes the
    lock file at the end if this call made it (one a bot made stays), and says it ran unchecked
    only once its work is done: a refusal of its own says why in one line."""
    itself = _open_itself(database)
    held: list[int] = close_later if close_later is not None else []
    try:
        async with _locked(database, itself, holder=holder, wait=wait, command=command):
            if itself is not None:
                held.append(itself)
                itself = None
            yield
    finally:
        for fd in held:
            _lock_itself(fd, fcntl.F_UNLCK)
            fcntl.flock(fd, fcntl.LOCK_UN)  # a lock file `relock_itself` made again
        if itself is not None:  # opened, never locked
            held.append(itself)
        if close_later is None:
            for fd in held:
                os.close(fd)


def bot_running_on(database: str) -> str | None:
    """Who runs on `database` now (as `ShardsTaken` names it), or None: a look that makes no
    file and holds no lock past itself (a dry run writes nothing)."""
    try:
        fd = os.open(lock_path(database), os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:  # no lock file (or a link, never a bot's): no bot has run on it from here
        fd = None
    if fd is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go of at the close
        except BlockingIOError:
            return _holder_in(fd) or "another process"
        finally:
            os.close(fd)
    itself = _open_itself(database)
    if itself is None:
        return None
    try:
        return None if _lock_itself(itself, fcntl.F_WRLCK) else BY_ANOTHER_NAME
    finally:
        os.close(itself)  # lets go of the lock on the file's byte


def relock_itself(database: str, held: list[int], holder: str | None = None) -> None:
    """The file at `database` replaced the one whose descriptors `held` keeps locked (a restored
    backup, a new file where one was deleted): lock the new one instead, and close the old
    one's, or its space is freed only when the bot stops. (Closing a descriptor of the old file
    lets go of no lock SQLite needs: its connections to it are closed.) A new file another bot
    holds (a hard link to its file) is said, not refused: this bot writes to it already.
    A folder deleted and made again took the lock file beside the file with it: made again
    (kept in `held`), naming `holder`, so a bot or command refused names this bot."""
    itself = _open_itself(database)
    if itself is not None and not _lock_itself(itself, fcntl.F_WRLCK):
        log.warning(
            "the file now at DATABASE_PATH=%s is in use by %s too: two bots write to it",
            database,
            BY_ANOTHER_NAME,
        )
    path = lock_path(database)
    kept = [fd for fd in held if _still_at(fd, path)]  # the lock file made again before
    if not kept and holder is not None:
        again = _lock_file_again(path, holder)
        kept = [again] if again is not None else []
    replaced = [fd for fd in held if fd not in kept]
    held[:] = ([itself] if itself is not None else []) + kept
    for fd in replaced:
        os.close(fd)


def _lock_file_again(path: str, holder: str) -> int | None:
    """The lock file at `path` (made where it is gone) locked and naming `holder`; None where
    another holds it (the bot's own, still there: nothing is gone) or it cannot be made."""
    try:
        fd, _ = _open_lock_file(path)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, holder.encode(), 0)
    except OSError as exc:  # a full disk: the lock holds all the same, unnamed
        log.debug("cannot name the holder in %s: %s", path, exc)
    return fd


def _open_itself(database: str) -> int | None:
    """The database file, opened to lock a byte of it; None where that cannot be (no file
    yet, no write access, no open-file-description locks: the lock file beside it holds)."""
    if not hasattr(fcntl, "F_OFD_SETLK"):
        return None
    try:
        return os.open(database, os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return None


def _lock_itself(fd: int, kind: int) -> bool:
    """An open-file-description lock on FILE_LOCK_BYTE, held by this descriptor alone (SQLite
    closing descriptors of its own leaves it in place). False if another holds it; True on a
    file system that keeps no such locks, as if this bot held it (the lock file beside it
    still holds)."""
    # struct flock on Linux: l_type, l_whence, l_start, l_len, l_pid (0 for these locks)
    request = struct.pack("hhqqi4x", kind, os.SEEK_SET, FILE_LOCK_BYTE, 1, 0)
    try:
        fcntl.fcntl(fd, fcntl.F_OFD_SETLK, request)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES):
            return False
        log.debug("cannot lock the database file itself: %s", exc)
    return True


@contextlib.asynccontextmanager
async def _locked(
    database: str, itself: int | None, *, holder: str, wait: float, command: bool
) -> AsyncIterator[None]:
    path = lock_path(database)
    try:
        fd, made = _open_lock_file(path)
    except FileNotFoundError:
        # No folder, so no database and no bot on it: opening it says so, in one line.
        yield
        return
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # `_open_lock_file` follows no link
            exc = OSError("a symbolic link, which the bot does not follow: remove it")
        unchecked = ("cannot check that no other bot runs on %s (%s: %s)", database, path, exc)
        if not command:  # a bot: said as it starts, and it runs
            log.warning(*unchecked)
            yield
            return
        # A command: said once its work is done. Most often the folder that refuses the lock
        # file refuses SQLite's journals too, and the command's one line says so.
        yield
        log.warning(*unchecked)
        return
    try:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + wait
        said = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                other = _holder_in(fd)
                if loop.time() >= give_up:
                    raise ShardsTaken(None, [other] if other else []) from None
                if not said:  # the wait is a restart's handover; not a silent one
                    said = True
                    log.warning(
                        "another bot runs on %s (%s); waiting up to %.0f s for it to stop "
                        "(a restart) before refusing",
                        database,
                        other or "unnamed",
                        wait,
                    )
            else:
                if not _still_at(fd, path):  # removed by the command that held it: lock anew
                    reopened = _open_lock_file(path)
                    os.close(fd)
                    fd, made = reopened
                    continue
                if itself is None or _lock_itself(itself, fcntl.F_WRLCK):
                    break
                fcntl.flock(fd, fcntl.LOCK_UN)
                if loop.time() >= give_up:
                    raise ShardsTaken(None, [BY_ANOTHER_NAME])
            await asyncio.sleep(RETRY_SECONDS)  # polling a lock: the kernel gives no event
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, holder.encode(), 0)  # who holds it, for the bot refused
        except OSError as exc:  # a full disk: the lock holds all the same, unnamed
            log.debug("cannot name the holder in %s: %s", path, exc)
        try:
            yield
        finally:  # refused, failing or stopped too: a command leaves no lock file it made
            if made and command:  # while locked: whoever waits on it then finds it gone
                _remove(path)
    finally:
        os.close(fd)  # lets go of the lock


def _holder_in(fd: int) -> str:
    """Who holds a lock file, as its holder wrote itself there, one printable line: anyone who
    may write in the database's folder may write there too (left76)."""
    return this_process.printable(os.pread(fd, 500, 0).decode("utf-8", "replace").strip())


def _open_lock_file(path: str) -> tuple[int, bool]:
    """The lock file's descriptor, and whether this call made it. A symbolic link in its place
    is not followed (OSError, ELOOP): the bot truncates the file and writes its name in it, and
    whoever may write in the database's folder could point it at any file the bot may write."""
    flags = os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW
    with contextlib.suppress(FileExistsError):
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644), True
    return os.open(path, flags), False


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):  # left in place, it only takes a name beside the file
        Path(path).unlink()


def _still_at(fd: int, path: str) -> bool:
    """Whether the locked file `fd` is still the one at `path` (not removed meanwhile)."""
    try:
        here = Path(path).stat()
    except FileNotFoundError:
        return False
    there = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
