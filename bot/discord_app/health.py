"""Health: the heartbeat file (`bot.heartbeat`: what it says, and `glossary-bot health`'s
reading of it) kept fresh while the bot is connected to the gateway and can write its
database, and its stop line."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from textwrap import shorten
from typing import TYPE_CHECKING

import discord

from bot import this_process
from bot.heartbeat import (
    HEARTBEAT_INTERVAL,
    LOST_SINCE,
    MAX_AGE,
    NOT_CONNECTED,
    ON_AN_ERROR,
    SHARDS_LOST,
    SHARDS_READ,
    STOPPED,
    UNHEALTHY,
    WAITING,
    is_heartbeat,
    read_text,
    said_in,
    stale,
    stopped_at,
)
from bot.once import OncePerReason
from bot.own_thread import on_own_thread
from bot.storage import Store

if TYPE_CHECKING:
    from bot.discord_app.rest_watch import RestWatch
    from bot.discord_app.state import DatabaseWait

log = logging.getLogger(__name__)

# The least time between two looks at the state that a change asked for (`keep_heartbeat`'s
# `changed`): a state that flaps is written at most this often, not at each flap.
LOOK_GAP = 0.5
RECONNECTING = "reconnecting"  # the state logged while Discord is lost for less than MAX_AGE

# The most of why the database is not writable that the line carries: `health` reads the file's
# first 2,000 bytes, and its second line (the last healthy beat's time) must be among them.
WHY_CHARS = 600
# Seconds the health check waits for the database to take its probe write. A database that hangs
# (a server paused by SIGSTOP, a network dropping packets) holds each write up to its command
# timeout (a minute on PostgreSQL), behind the write under way: waited for that long, the
# heartbeat would stop and `health` say the bot down. Well within MAX_AGE less the heartbeat's
# interval, so the file says why before it is stale.
PROBE_WAIT = 20.0


def is_connected(client: discord.Client) -> bool:
    """Connected to Discord: a process of several shards while any of them is (the others,
    `lost_shards`, are judged each by itself; their average latency read one lost shard as
    the whole process lost)."""
    if not client.is_ready() or client.is_closed():
        return False
    if isinstance(client, discord.AutoShardedClient):
        return any(_shard_up(client, shard, latency) for shard, latency in client.latencies)
    return math.isfinite(client.latency) and 0 not in _between_sessions(client)


def lost_shards(client: discord.Client) -> list[int]:
    """The shards of a process of several that are not connected while another is."""
    if not isinstance(client, discord.AutoShardedClient) or not is_connected(client):
        return []
    return sorted(s for s, latency in client.latencies if not _shard_up(client, s, latency))


def _shard_up(client: discord.AutoShardedClient, shard_id: int, latency: float) -> bool:
    # A closed connection has no heartbeat (latency inf) once discord.py notices; is_closed
    # says it at once.
    shard = client.get_shard(shard_id)
    return (
        math.isfinite(latency)
        and shard is not None
        and not shard.is_closed()
        and shard_id not in _between_sessions(client)
    )


def _between_sessions(client: discord.Client) -> set[int]:
    """The shards whose new connection has had no READY or RESUMED yet (GlossaryBot's; a
    bare client's none)."""
    return getattr(client, "between_sessions", set())


async def unhealthy_reason(
    client: discord.Client,
    store: Store | None,
    database: str = "the database setting",
    waiting: DatabaseWait | None = None,
) -> str | None:
    """Why the bot is unhealthy now, or None when it is healthy; `database` names the setting
    of a database that could not be opened at start (`store` None), `waiting` the wait for
    one not up yet, while the bot answers without it."""
    if store is None and waiting is not None:
        how = (
            "connected to Discord, answering from the glossary"
            if is_connected(client)
            else NOT_CONNECTED
        )
        return (
            f"{how}; {WAITING}{waiting.setting} (since {waiting.since:.0f}; "
            f"DATABASE_WAIT={waiting.seconds:g} s)"
        )
    if store is None:
        failing = (
            f"the database ({database}) could not be opened at start (the log says why): "
            "restart the bot once that is fixed"
        )
    elif (why := await _why_not_writable(store)) is not None:
        why = shorten(why, WHY_CHARS, placeholder=" […]")  # on one line, whitespace folded
        failing = f"the database at {store.location} is not writable: {why}"
    elif (why := store.claims_lost()) is not None:
        failing = shorten(why, WHY_CHARS, placeholder=" […]")
    else:
        return None if is_connected(client) else NOT_CONNECTED
    if not is_connected(client):  # both, in one line
        return f"{NOT_CONNECTED}, and {failing}"
    return f"connected to Discord, but {failing}"


async def _why_not_writable(store: Store) -> str | None:
    """`store.why_not_writable()`, or that it has not answered within PROBE_WAIT (the probe
    goes on: the next look shares it)."""
    try:
        return await asyncio.wait_for(store.why_not_writable(), PROBE_WAIT)
    except TimeoutError:
        return (
            f"it has not answered a write for {PROBE_WAIT:g} s (the database, or the network "
            "to it, hangs)"
        )


# A file's beat and stop line are written one at a time: a beat not begun when the stop is said
# is not written, and the line waits for one under way (a slow disk held it past the stop's
# deadline, and it landed after the line: a stopped bot read healthy). A lock per file: one
# for the process let a file whose disk hangs hold every other bot's beats (review36 V9).
_WRITES: dict[Path, threading.Lock] = {}
_WRITES_TAKEN = threading.Lock()
LINE_SECONDS = 0.5  # the stop line's wait past the stop's deadline, when none is left


def _writes(path: Path) -> threading.Lock:
    with _WRITES_TAKEN:
        return _WRITES.setdefault(path, threading.Lock())


def _write_heartbeat(
    path: Path,
    reason: str | None,
    says_why: bool,
    note: str | None = None,
    lost_since: float | None = None,
    stop: asyncio.Event | None = None,
    shards: dict[int, float] | None = None,
) -> str | None:
    """Healthy: the time, which is the heartbeat, and on a second line what `health` adds (Discord
    failing). Unhealthy and `says_why` (the database failing, or Discord lost after that): why,
    keeping the file's time, the last healthy heartbeat's, so that a database failing before the
    first heartbeat is not read as "never connected". Only Discord lost since `lost_since`
    (after a healthy beat): that, likewise. Returns why the file could not be written."""
    with _writes(path):
        if stop is not None and stop.is_set():  # read in this thread: set before the line
            return None
        return _write_beat(path, reason, says_why, note, lost_since, shards)


def _write_beat(
    path: Path,
    reason: str | None,
    says_why: bool,
    note: str | None,
    lost_since: float | None,
    shards: dict[int, float] | None = None,
) -> str | None:
    try:
        if reason is None:
            # Oldest first: where `health` reads no further (`SHARDS_READ`), the newest go.
            ordered = sorted((shards or {}).items(), key=lambda item: (item[1], item[0]))
            lost = " ".join(f"{s}={at:.0f}" for s, at in ordered)
            beneath = f"{SHARDS_LOST}{lost}\n" if lost else ""
            _put(path, f"{time.time():.0f}\n{note or ''}\n{beneath}{_writer()}")
        elif says_why or (lost_since is not None and path.exists()):
            before = path.stat() if path.exists() else None
            said = f"{UNHEALTHY}{reason}" if says_why else f"{LOST_SINCE}{lost_since:.0f}"
            # When it was said, beneath: a bot killed meanwhile would be read as answering.
            _put(path, f"{said}\n{time.time():.0f}\n{_writer()}")
            if before is not None:
                os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _writer() -> str:
    """The last line of every text the bot writes there: this process by pid, host and run id,
    and its pid namespace, in which alone its pid can be looked up ("pid 1 on vm run 1a2b3c4d
    pidns 4026532175"), so that a second process on the same HEARTBEAT_PATH can tell a running
    one's beat (`_running_writer`)."""
    namespace = this_process.pid_namespace()
    return f"{this_process.named()}{f' pidns {namespace}' if namespace else ''}\n"


def _running_writer(path: Path) -> str | None:
    """Another process that may still run, as the warning names it, whose fresh heartbeat (a
    beat or why it is unhealthy, not a stop) the file holds; None when not so: this process's
    own (its run id), a stale beat, a stop, a file an older bot wrote (no "pid" line), or one
    whose writer is known gone (a pid of this host and pid namespace that no process has, or
    this process's own pid under another run id: an earlier process's). A writer in another
    pid namespace or on another host (each container's bot is pid 1) cannot be looked up: its
    fresh beat is left, and goes stale by itself if it is gone. A line without a run id (a bot
    of before run ids, still running during an upgrade) is judged as that bot judged it: by
    its pid on this host, left where another host's."""
    text = read_text(path, SHARDS_READ + 256)
    lines = text.splitlines()
    if len(lines) < 2 or not text.endswith("\n"):  # cut short: its last line may be too
        return None
    said = lines[0].strip()
    if not is_heartbeat(said) or stopped_at(said) is not None:
        return None
    fields = lines[-1].split()  # pid N on HOST [run RUN [pidns NS]]
    if (
        len(fields) not in (4, 6, 8)
        or fields[0:6:2] != ["pid", "on", "run"][: len(fields) // 2]
        or not fields[1].isdigit()
        or (len(fields) == 8 and fields[6] != "pidns")
    ):
        return None
    pid, host = int(fields[1]), fields[3]
    if len(fields) > 4 and fields[5] == this_process.run_id():
        return None
    # Fresh: a beat's time is the file's; an unhealthy line keeps that, and says its own below.
    written = float(lines[1]) if not said.isdigit() and lines[1].isdigit() else None
    try:
        written = written or path.stat().st_mtime
    except OSError:
        return None
    if stale(written, time.time()):
        return None
    who = " ".join(fields[:6])
    namespace = this_process.pid_namespace()
    older = len(fields) == 4  # a bot of before run ids (left48's): its pid looked up, as it did
    here = host == socket.gethostname()
    if not here or (not older and (namespace is None or fields[7:] != [namespace])):
        return (
            f"another process that may still run ({who}: another container's or host's, "
            "whose pid cannot be looked up from here)"
        )
    if pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # alive, another user's
        pass
    except (OSError, OverflowError):  # no such pid on this system
        return None
    return f"another running process ({who})"


def _put(path: Path, text: str) -> None:
    """`text` as the file's whole, or, where the disk has no room for it, the file as it was:
    a write that truncated first and then failed left an empty file just touched (each beat
    touched it again), which `health` read as a fresh heartbeat of a bot saying nothing (a
    file being written). The text goes over the old in place, then the rest is cut; a file
    made here for a text that failed is removed."""
    data = text.encode("utf-8")
    try:
        fd, made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), True
    except FileExistsError:  # or a link to a file not made yet, made through it as before
        fd, made = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666), False
    try:
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        if stat.S_ISREG(os.fstat(fd).st_mode):  # a device has no length to cut
            os.ftruncate(fd, len(data))
    except OSError:
        if made:
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    finally:
        os.close(fd)


def _file_time(path: Path) -> int | None:
    """The file's modification time in ns, None when there is none to read."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


async def keep_heartbeat(
    client: discord.Client,
    store: Store | Callable[[], Store | None] | None,
    path: Path,
    database: str = "the database setting",
    rest: RestWatch | None = None,
    interval: float = HEARTBEAT_INTERVAL,
    stop: asyncio.Event | None = None,
    waiting: Callable[[], DatabaseWait | None] = lambda: None,
    changed: asyncio.Event | None = None,
) -> None:
    """Touch `path` every `interval` seconds while healthy; a stale file is the alarm. While
    Discord's API fails (`rest`), the heartbeat says so but stays healthy. Ends when the client
    closes or `stop` is set, never in the middle of a write (`stop_heartbeat`). An earlier
    run's stop line is the caller's to forget (`forget_stop`: `run` does as it starts).
    `store` may be asked each beat (a callable): the database may open while the bot answers,
    `waiting` saying meanwhile for which. `changed`, set where what the beat says may have
    changed (`BotState.health_changed`), has the state looked at again at once, and the file
    written then if what it says changed: `health` no longer lags the bot by up to `interval`."""
    store_now: Callable[[], Store | None] = store if callable(store) else lambda: store
    stop = stop or asyncio.Event()
    changed = changed or asyncio.Event()
    loop = asyncio.get_running_loop()
    # The first heartbeat as soon as the bot is connected; a bot stopped before, none.
    ready, stopping = (asyncio.ensure_future(c) for c in (client.wait_until_ready(), stop.wait()))
    await asyncio.wait({ready, stopping}, return_when=asyncio.FIRST_COMPLETED)
    ready.cancel()
    stopping.cancel()
    logged: str | None = ""  # the state last logged ("": none yet): each change is logged once
    write_failing = OncePerReason()  # why the heartbeat cannot be written
    left: int | None = None  # the file's time as this process last left it
    shared_said = False
    said_why = False  # the file says why this process is unhealthy
    lost_since: float | None = None  # when Discord was first seen lost, in this streak
    shards: dict[int, float] = {}  # shards lost while others serve, and since when
    shards_said: dict[int, str] = {}  # what the log said of each
    # What the file says bar its times, as this process last wrote it (None: not known): the
    # beat's arguments, of which its text is made.
    written: tuple[object, ...] | None = None
    due = loop.time()  # the periodic beat's: its time is the liveness
    while not client.is_closed() and not stop.is_set():
        looked = loop.time()
        changed.clear()  # a change from here on is looked at again
        reason = await unhealthy_reason(client, store_now(), database, waiting())
        shards = {s: shards.get(s, time.time()) for s in lost_shards(client)}
        _say_shards(shards, shards_said)
        now_at = await on_own_thread(_file_time, path)
        if left is not None and now_at not in (None, left) and not shared_said:
            # Another writer: `health` would read its heartbeat as this process's too.
            log.warning(
                "HEARTBEAT_PATH=%s was written by another process since this one's last "
                "heartbeat: give each process its own file, or `health` cannot tell either "
                "one is down",
                path,
            )
            shared_said = True
        note = rest.note() if rest is not None else None
        # Only Discord lost: the heartbeat going stale says so (a reconnect within MAX_AGE is no
        # alarm). A bot already saying why it is unhealthy keeps saying it, or `health` reads
        # the line it stopped renewing as the bot being down.
        says_why = reason != NOT_CONNECTED or said_why
        lost_since = (lost_since or time.time()) if reason == NOT_CONNECTED else None
        says = (reason, says_why, note, lost_since, sorted(shards.items()))
        failure = None
        if loop.time() >= due or says != written:  # a look that changes nothing writes nothing
            failure = await on_own_thread(
                _write_heartbeat, path, reason, says_why, note, lost_since, stop, shards
            )
            due = loop.time() + interval
            written = says if failure is None else None
            said_why = reason is not None and says_why and failure is None
            left = None if failure is not None else await on_own_thread(_file_time, path)
            if failure is None:
                write_failing.ended()
            elif write_failing.is_new(failure):
                log.error("cannot write the heartbeat file HEARTBEAT_PATH=%s: %s", path, failure)
        # Discord lost a moment ago is a reconnect (an op 9 waits seconds to IDENTIFY again),
        # which `health` does not call unhealthy either: a warning only once `health` would
        # give one, judged on the same beat (the last healthy one, whose time the file keeps).
        last_beat = left / 1e9 if left is not None else lost_since
        reconnecting = (
            lost_since is not None
            and last_beat is not None
            and not says_why
            and not stale(last_beat, time.time())
        )
        state = RECONNECTING if reconnecting else reason
        if failure is not None and reason is None:
            logged = ""  # "healthy" is said once the heartbeat is written
        elif state != logged:
            if state is None:
                log.info("healthy: heartbeat in %s", path)
            elif state == RECONNECTING:
                log.info("not connected to Discord: reconnecting (unhealthy after %.0f s)", MAX_AGE)
            elif WAITING not in state:  # the wait's own lines say when it begins and ends
                log.warning("unhealthy: %s", reason)
            logged = state
        pause = max(due - loop.time(), 0.0)
        if reconnecting and last_beat is not None:  # next look when `health` would turn
            pause = min(pause, max(last_beat + MAX_AGE - time.time(), 0.0) + 0.01)
        turning = [at + MAX_AGE - time.time() for at in shards.values()]
        if any(left > 0 for left in turning):  # likewise for a shard's
            pause = min(pause, min(left for left in turning if left > 0) + 0.01)
        if await _first_set((stop, changed), pause) is changed:
            # A state that flaps is looked at once a LOOK_GAP: the changes meanwhile coalesce.
            rest_of_gap = min(looked + LOOK_GAP, due) - loop.time()
            with contextlib.suppress(TimeoutError):  # pacing, until a stop
                await asyncio.wait_for(stop.wait(), max(rest_of_gap, 0.0))


async def _first_set(events: Sequence[asyncio.Event], within: float) -> asyncio.Event | None:
    """The first of `events` set within `within` seconds (the first listed if several are),
    None if none is: pacing a periodic task that a change or a stop may wake early."""
    waits = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waits, timeout=within, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
    return next((event for event in events if event.is_set()), None)


def _say_shards(shards: dict[int, float], said: dict[int, str]) -> None:
    """Log each lost shard once as reconnecting, once more past MAX_AGE (as `health` then
    says), and its return: the shards that change alike on one beat in one line (an outage
    loses a process's shards together: 150 lines each time said nothing more)."""
    now = time.time()
    turned: dict[str, list[int]] = {RECONNECTING: [], "down": []}
    for shard, since in sorted(shards.items()):
        state = "down" if stale(since, now) else RECONNECTING
        if said.get(shard) != state:
            turned[state].append(shard)
            said[shard] = state
    if turned[RECONNECTING]:
        log.info(
            "%s not connected to Discord: reconnecting (unhealthy after %.0f s)",
            _shards_named(turned[RECONNECTING]),
            MAX_AGE,
        )
    if turned["down"]:
        lost = sorted(round(now - shards[shard]) for shard in turned["down"])
        how_long = f"{lost[0]}" if lost[0] == lost[-1] else f"{lost[0]}-{lost[-1]}"
        log.warning(
            "unhealthy: %s not connected to Discord for %s s (the process's other shards are)",
            _shards_named(turned["down"]),
            how_long,
        )
    back = sorted(set(said) - set(shards))
    if back:
        log.info("%s connected to Discord again", _shards_named(back))
    for shard in back:
        del said[shard]


def _shards_named(shards: list[int]) -> str:
    """ "shard 3", "shards 0-149,152", "shards 3,4": runs of three or more as ranges."""
    return f"shard{'s' if len(shards) > 1 else ''} {shard_ranges(shards, shortest=3)}"


def shard_ranges(ids: Sequence[int], *, shortest: int = 2) -> str:
    """Shard ids, sorted, their runs of at least `shortest` as ranges: 0,1,2,3,7 -> "0-3,7"."""
    runs: list[list[int]] = []
    for shard in sorted(set(ids)):
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    return ",".join(
        f"{run[0]}-{run[-1]}" if len(run) >= shortest else ",".join(map(str, run)) for run in runs
    )


async def stop_heartbeat(
    keeper: asyncio.Task[None] | None,
    stop: asyncio.Event,
    path: Path,
    within: float | None = None,
    *,
    on_error: bool = False,
) -> None:
    """The stop's end of the heartbeat: the keeper (`keep_heartbeat`) told to stop and awaited,
    a write under way in its thread included, then "stopped at …" written (`mark_stopped`).
    Cancelled instead, a write already in its thread landed after that line, and `health` read
    a fresh beat of a stopped bot. A keeper not done `within` seconds (a disk that hangs) is
    cancelled; the line is written all the same, after its write under way (`_WRITES`), and
    waited for only until then: a hung disk held the stop without end. No keeper: the bot
    stopped before its heartbeat began (asking Discord, logging in), and the line is all."""
    loop = asyncio.get_running_loop()
    until = None if within is None else loop.time() + within
    stop.set()
    if keeper is not None:
        done, _ = await asyncio.wait({keeper}, timeout=within)
        if not done:
            keeper.cancel()
    line = asyncio.ensure_future(
        on_own_thread(mark_stopped, path, on_error=on_error, beat=keeper is not None)
    )
    # At least a moment: a disk that answers writes the line in a millisecond, deadline or not.
    left = None if until is None else max(until - loop.time(), LINE_SECONDS)
    done, _ = await asyncio.wait({line}, timeout=left)
    if not done:
        log.error(
            "the heartbeat file HEARTBEAT_PATH=%s is still being written at the stop's deadline "
            "(a disk that hangs?): its stop line follows when the write ends",
            path,
        )


def mark_stopped(path: Path, *, on_error: bool = False, beat: bool = True) -> None:
    """Stopped: no longer healthy, and `health` says the bot stopped, cleanly or `on_error`
    (the connection ended on one: a revoked token was told "stopped cleanly"). Written also
    where no heartbeat was yet (a bot stopped while starting: `health` said "starting, or never
    connected" of it); never onto a folder or device. A stop never fails on it (the heartbeat
    is the health check's, the counts are flushed already). `beat`: this process kept a
    heartbeat (False: it stopped before its first beat, as one refused beside a bot running on
    its database file is), which alone makes two processes on one HEARTBEAT_PATH a fault."""
    try:
        with _writes(path):
            if path.is_file() or not path.exists():
                running = _running_writer(path)
                if running is not None:  # another process's beat: its health is not ours to say
                    log.warning(
                        "HEARTBEAT_PATH=%s is the heartbeat of %s: this one's stop is not written"
                        " over it; %s",
                        path,
                        running,
                        "give each process its own HEARTBEAT_PATH"
                        if beat
                        else "this one stopped before its first beat, so the file stays that "
                        "bot's (why it stopped is said above)",
                    )
                    return
                how = ON_AN_ERROR if on_error else ""
                _put(path, f"{STOPPED}{time.time():.0f}{how}\n{_writer()}")
    except OSError as exc:
        log.error("cannot write the heartbeat file HEARTBEAT_PATH=%s: %s", path, exc.strerror)


async def forget_stop(path: Path) -> None:
    """`_forget_stop` off the loop."""
    await on_own_thread(_forget_stop, path)


def _forget_stop(path: Path) -> None:
    """A bot starting on a file an earlier one left saying it stopped: `health` says
    "starting" until the first heartbeat, as for a first start. In turn with the file's writes:
    held by a disk that hangs, it removes no stop line written after it."""
    with _writes(path):
        said, _ = said_in(path)
        if stopped_at(said) is not None:
            try:
                path.unlink()
            except OSError as exc:
                log.error(
                    "cannot remove the heartbeat file HEARTBEAT_PATH=%s: %s", path, exc.strerror
                )
