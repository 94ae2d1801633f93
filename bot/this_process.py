"""This process as other processes are told of it: the heartbeat file's last line, the name a
refusal gives the holder of a SQLite file or of shards. Pid and host do not tell processes
apart where each bot is pid 1 of its own container on one host (host networking gives each the
host's name), so a run id, made once a process, goes beside them; and whether a pid is alive
only a process in the same pid namespace can say (`pid_namespace`)."""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path


def _new_run() -> str:
    return secrets.token_hex(4)


_run = _new_run()


def _forked() -> None:
    global _run  # a forked child is another process: another run
    _run = _new_run()


os.register_at_fork(after_in_child=_forked)


def run_id() -> str:
    """This process's run id: 8 hex digits, the same for its whole life."""
    return _run


def named() -> str:
    """How this process names itself: "pid 1 on vm run 1a2b3c4d"."""
    return f"pid {os.getpid()} on {socket.gethostname()} run {_run}"


def pid_namespace() -> str | None:
    """This process's pid namespace ("4026531836"), None where it cannot be read (no /proc):
    two processes in one (on one host) may judge each other's pids alive or dead."""
    try:
        link = str(Path("/proc/self/ns/pid").readlink())
    except OSError:
        return None
    inode = link.removeprefix("pid:[").removesuffix("]")
    return inode if inode.isdigit() else None


def printable(text: str) -> str:
    """Text another process left in a file (a lock file's holder, a heartbeat's note) as a
    terminal shows it, never obeys: its control characters escaped, so one printable line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
