"""The heartbeat file: what the running bot writes in it (`bot.discord_app.health` keeps it
fresh) and how `glossary-bot health` (the container's HEALTHCHECK, every 30 s) reads and judges
it. A module of its own, loading neither discord.py nor aiohttp: the check reads one file, and
those two cost it ~0.45 s of its ~0.85 s of CPU each time (ci62)."""

from __future__ import annotations

import os
import re
import stat
import time
from pathlib import Path

from bot.reach import deleted_folder, folder_of
from bot.this_process import printable

MAX_AGE = 45.0  # a heartbeat older than this means unhealthy
# Seconds between a healthy bot's beats (`HEARTBEAT_INTERVAL`'s default). At most a third of
# MAX_AGE, so that `health` always sees a beat late by a loaded machine's seconds as fresh.
HEARTBEAT_INTERVAL = 10.0
MAX_INTERVAL = MAX_AGE / 3
MIN_INTERVAL = 0.1  # shorter: the file rewritten many times a second, for nothing
UNHEALTHY = "unhealthy: "  # how the heartbeat file starts when the bot knows why it is unhealthy
NOT_CONNECTED = "not connected to Discord"
# How the file starts while only Discord is lost (the time it was first seen lost follows): the
# last healthy beat's time is kept, so a reconnect within MAX_AGE is no alarm, and past it
# `health` says why rather than only how old the heartbeat is.
LOST_SINCE = "not connected to Discord since "
# How the file starts once the bot stopped cleanly (the time follows): `health` then says so,
# unhealthy still, rather than "starting, or never connected".
STOPPED = "stopped at "
# After the time, when the connection ended on an error (a revoked token): not a clean stop.
ON_AN_ERROR = " on an error"
# In an unhealthy line while the bot answers and waits for its database (a PostgreSQL not up
# yet at start): `health` says "starting: …", the wait's start as a time of day.
WAITING = "waiting for the database "
# A healthy beat's third line, while some of a process's shards are lost and others serve: each
# lost shard and when it was first seen lost ("1=1733370000 3=1733370010"). Judged by `health`
# as a lone shard's reconnect is: no alarm within MAX_AGE, unhealthy naming the shard past it.
SHARDS_LOST = "shards not connected to Discord since: "
# What `health` reads of that line: some 3,800 shards (2,000 bytes cut it at about 120).
SHARDS_READ = 1 << 16


def stale(beat: float, now: float, max_age: float | None = None) -> bool:
    """Whether a heartbeat written at `beat` no longer vouches for the bot at `now`: the one
    judgement of `health` and of the log's "unhealthy" while Discord is lost (a reconnect
    within it is no alarm), so the two agree on the moment."""
    return now - beat > (MAX_AGE if max_age is None else max_age)


def check_heartbeat(
    path: Path, max_age: float = MAX_AGE, now: float | None = None
) -> tuple[bool, str]:
    """(healthy, why) for `glossary-bot health`."""
    try:
        status = path.stat()
    except FileNotFoundError:
        # Absolute: a relative HEARTBEAT_PATH read from another folder (cron, a unit's
        # WorkingDirectory) is another file than the bot's, and this line must show it.
        where = folder_of(path) / path.name
        return False, f"no heartbeat at {where} yet ({_why_none(where.parent)})"
    except OSError as exc:
        return False, f"cannot read the heartbeat HEARTBEAT_PATH={path}: {exc.strerror or exc}"
    if not stat.S_ISREG(status.st_mode):
        # A folder's time changes with what is written in it, not with the bot's health.
        return False, f"HEARTBEAT_PATH={path} is a folder or device, not a file: name a file"
    said, note = said_in(path)
    if said and not is_heartbeat(said):  # empty: being written, its time decides
        return False, (
            f"HEARTBEAT_PATH={path} is not a heartbeat the bot wrote: give the bot a file of "
            "its own"
        )
    now = time.time() if now is None else now
    stopped = stopped_at(said)
    if stopped is not None:
        ago = now - stopped
        # Dated ahead: this machine's clock was set back since (or ran ahead then): not "0 s ago".
        when = (
            f"{max(ago, 0.0):.0f} s ago"  # its time rounded to the second: -0.4 is "0 s"
            if ago > -1
            else f"(the stop is dated {-ago:.0f} s ahead of this machine's clock: the clock was "
            "set back since)"
        )
        how = (
            f"on an error {when} (its log says which)"
            if said.endswith(ON_AN_ERROR)
            else f"cleanly {when}"
        )
        said = f"stopped: the bot stopped {how}, and has not connected since"
        return False, said + _cannot_be_written(path)
    lost = _lost_since(said)
    if said.startswith(UNHEALTHY) or lost is not None:
        silent = now - float(note) if note.isdigit() else 0.0  # no time: a bot before this one
        if lost is not None:  # for how long, while the bot still says it
            down = silent > max_age
            said = NOT_CONNECTED if down else f"{NOT_CONNECTED} for {max(now - lost, 0.0):.0f} s"
        if silent > max_age:  # said by a bot that has stopped saying anything since: down
            return False, (
                f"down: nothing from the bot for {silent:.0f} s (more than {max_age:.0f} s); "
                f"it last said: {_waiting_said(said, now)}"
            )
        if lost is None:
            return False, _waiting_said(said, now)
        note = f"{said} (reconnecting)"  # past MAX_AGE, the heartbeat's age below says it
    age = now - status.st_mtime
    if -age > max_age:  # a live bot writes the clock's time at its next beat, seconds later
        return False, (
            f"the last heartbeat is dated {-age:.0f} s ahead of this machine's clock: the clock "
            "was set back, and no heartbeat came since"
        )
    age = max(age, 0.0)  # a beat written a moment ago by a clock a little ahead
    if stale(status.st_mtime, now, max_age):
        why = f": {note}" if lost is not None else ""
        return False, f"last heartbeat {age:.0f} s ago (more than {max_age:.0f} s){why}"
    shards = shards_lost(read_text(path, SHARDS_READ))
    if shards:  # the process serves its other shards; these are judged as a reconnect is
        longest = max(now - at for at in shards.values())
        named = f"shard{'s' if len(shards) > 1 else ''} {','.join(map(str, sorted(shards)))}"
        said = f"{named} not connected to Discord for {max(longest, 0.0):.0f} s"
        if longest > max_age:
            return False, (
                f"{said} (more than {max_age:.0f} s), while the process's other shards are: "
                "its log says why"
            )
        note = f"{note}; " if note else ""
        note += f"{said} (reconnecting)"
    return True, f"healthy: last heartbeat {age:.0f} s ago" + (f"; {note}" if note else "")


def _waiting_said(said: str, now: float) -> str:
    """An unhealthy line of a bot waiting for its database (`WAITING`) as `health` says it:
    starting, the wait's start a time of day (UTC) and its age; any other line as it is."""
    found = re.search(r"\(since (\d+);", said)
    if WAITING not in said or not said.startswith(UNHEALTHY) or found is None:
        return said
    since = float(found[1])
    when = time.strftime("%H:%M:%S UTC", time.gmtime(since))
    age = f"{max(now - since, 0.0):.0f} s"
    said = f"{said[: found.start()]}(since {when}, {age};{said[found.end() :]}"
    return f"starting: {said.removeprefix(UNHEALTHY)}"


def shards_lost(lines: str | list[str]) -> dict[int, float]:
    """The shards a healthy beat says are lost (`SHARDS_LOST`), and since when, from the
    heartbeat file's text or lines; {} for none (or a file an older bot wrote). Text read short
    of the line's end leaves out its last item, whose time may be cut ("17333")."""
    cut = isinstance(lines, str) and len(lines.split("\n")) <= 3
    lines = lines.splitlines() if isinstance(lines, str) else lines
    said = lines[2].strip() if len(lines) > 2 else ""
    if not said.startswith(SHARDS_LOST):
        return {}
    lost = {}
    items = said.removeprefix(SHARDS_LOST).split()
    for item in items[:-1] if cut else items:
        shard, _, since = item.partition("=")
        if shard.isdigit() and since.isdigit():
            lost[int(shard)] = float(since)
    return lost


def _why_none(folder: Path) -> str:
    """Why there is no heartbeat file: a folder the bot cannot write it in (a `--read-only`
    container without a tmpfs, a path never made) says so for good, not "starting"."""
    if not folder.is_dir():
        return (
            f"its folder {folder} does not exist: HEARTBEAT_PATH must be in one the bot can write"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        # Most often the volume's folder itself (a host folder mounted on /data that the
        # image's user does not own), which the database needs too: both ways out are said.
        return (
            f"its folder {folder} is not writable by this user (uid {os.getuid()}): give the "
            "folder to that user (a host folder mounted there: chown it on the host), or set "
            "HEARTBEAT_PATH in one it can write"
        )
    if deleted_folder(folder):
        return (
            f"its folder {folder} was deleted while the bot ran in it (a container's volume "
            "folder removed on the host): nothing can be written there again; restart the bot "
            "with the folder in place"
        )
    return "starting, or never connected"


def _cannot_be_written(path: Path) -> str:
    """What a stop line read from a file no bot here can write over says too: it may be an
    earlier run's last word (a volume given again read-only), whatever runs now."""
    if os.access(path, os.W_OK):
        return ""
    read_only = os.statvfs(path.parent).f_flag & os.ST_RDONLY
    why = "is on a read-only file system" if read_only else "is not writable by this user"
    return (
        f"; but HEARTBEAT_PATH={path} {why}: a bot running now cannot write it either (its log "
        "says why)"
    )


def is_heartbeat(said: str) -> bool:
    """Whether a heartbeat file's first line is one the bot writes (`_write_heartbeat`): the
    time of a healthy beat, why it is unhealthy, since when Discord is lost, or when it
    stopped."""
    beat = said.isascii() and said.isdigit()
    known = said.startswith(UNHEALTHY) or stopped_at(said) is not None
    return beat or known or _lost_since(said) is not None


def stopped_at(said: str) -> float | None:
    """When the bot stopped cleanly, from a heartbeat file's first line (None: not so)."""
    at = said.removeprefix(STOPPED).removesuffix(ON_AN_ERROR)
    return float(at) if said.startswith(STOPPED) and at.isdigit() else None


def _lost_since(said: str) -> float | None:
    """When the bot first saw Discord lost, from a heartbeat file's first line (None: not so)."""
    since = said.removeprefix(LOST_SINCE)
    return float(since) if since != said and since.isdigit() else None


def said_in(path: Path) -> tuple[str, str]:
    """The heartbeat file's first line and the note on its second ("" if unreadable: its time
    then decides)."""
    lines = _lines(path)
    said, note = (lines[0].strip() if lines else ""), (lines[1].strip() if len(lines) > 1 else "")
    return printable(said), printable(note)


def _lines(path: Path) -> list[str]:
    """The heartbeat file's lines ([] if unreadable)."""
    return read_text(path, 2000).splitlines()


def read_text(path: Path, limit: int) -> str:
    """Up to `limit` bytes of the heartbeat file ("" if unreadable)."""
    try:
        with path.open("rb") as file:
            return file.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""
