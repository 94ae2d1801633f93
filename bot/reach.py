"""Why this process cannot reach a path: the one reading of the file system's errors for what
the glossary reads and the database the store opens. `Path.is_dir()` raises on a folder on the
way that cannot be searched, and `Path.resolve()` on a loop of symbolic links (tracebacks,
each, before these were asked first)."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

LOOP = "a loop of symbolic links"


def unreachable(path: Path) -> str | None:
    """Why `path` cannot be reached ("a folder on its path cannot be searched by this process
    (user 10001): Permission denied", or `LOOP`); None when it can, or is not there."""
    try:
        path.stat()
    except PermissionError:
        return (
            f"a folder on its path cannot be searched by this process (user {os.getuid()}): "
            "Permission denied"
        )
    except OSError as exc:
        return LOOP if exc.errno == errno.ELOOP else None
    return None


def symlink_loop(path: Path) -> bool:
    """Whether `path` leads through a loop of symbolic links (is_dir() and is_file() say False,
    as for nothing there)."""
    return unreachable(path) == LOOP


def deleted_folder(folder: Path) -> bool:
    """Whether `folder` was deleted while this process still reaches it by that path: a
    container's /data once its volume's folder is removed on the host, or the working folder of
    a relative path. It is there, by no name, and nothing can be made in it again (a folder made
    anew under the name is another one), so only a restart with the folder in place mends it."""
    try:
        found = folder.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(found.st_mode) or found.st_nlink != 0:
        return False
    # No links is a deleted folder on most file systems, but some FUSE and overlay ones report
    # none for a live folder: told apart by what only a deleted one refuses, a file made in it
    # (ENOENT), removed at once. Refused otherwise (read-only, no right): not said deleted.
    try:
        made, name = tempfile.mkstemp(dir=folder, prefix=".glossary-bot-probe-")
    except FileNotFoundError:
        return True
    except OSError:
        return False
    os.close(made)
    with contextlib.suppress(OSError):
        Path(name).unlink()
    return False


def folder_of(path: Path) -> Path:
    """The folder `path` is in, absolute where it can be: the working folder deleted has no name
    to make a relative path absolute with (os.getcwd() fails), so it is named as given."""
    try:
        return path.absolute().parent
    except FileNotFoundError:
        return path.parent
