"""Health: a heartbeat file the bot keeps fresh while it is connected to the gateway and can write
its database, and the `glossary-bot health` check that reads it (the container's HEALTHCHECK)."""

from __future__ import annotations

import asyncio
import logging
import math
import stat
import time
from pathlib import Path

import discord

from bot.storage import Store

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL = 10.0  # seconds between heartbeats
MAX_AGE = 45.0  # a heartbeat older than this means unhealthy


async def is_healthy(client: discord.Client, store: Store | None) -> bool:
    connected = client.is_ready() and not client.is_closed() and math.isfinite(client.latency)
    return connected and store is not None and await store.can_write()


async def keep_heartbeat(
    client: discord.Client, store: Store | None, path: Path, interval: float = HEARTBEAT_INTERVAL
) -> None:
    """Touch `path` every `interval` seconds while healthy; a stale file is the alarm."""
    await client.wait_until_ready()  # the first heartbeat as soon as the bot is connected
    was_healthy: bool | None = None  # log each change, starting with the first state
    write_failed: str | None = None  # logged once until the heartbeat is written again
    while not client.is_closed():
        healthy = await is_healthy(client, store)
        if healthy:
            try:
                await asyncio.to_thread(path.write_text, f"{time.time():.0f}\n", "utf-8")
            except OSError as exc:
                reason = exc.strerror or str(exc)
                if reason != write_failed:
                    log.error("cannot write the heartbeat file HEARTBEAT_PATH=%s: %s", path, reason)
                write_failed = reason
            else:
                if not was_healthy or write_failed:
                    log.info("healthy: heartbeat in %s", path)
                write_failed = None
        elif was_healthy is not False:
            log.warning("unhealthy: not connected to Discord, or the database is not writable")
        was_healthy = healthy
        await asyncio.sleep(interval)  # pacing a periodic task, not waiting for an event


def clear_heartbeat(path: Path) -> None:
    """Stopped: no longer healthy. Only a file the bot could have written is removed; a stop
    never fails on it (the heartbeat is the health check's, the counts are flushed already)."""
    try:
        if path.is_file():
            path.unlink()
    except OSError as exc:
        log.error("cannot remove the heartbeat file HEARTBEAT_PATH=%s: %s", path, exc.strerror)


def check_heartbeat(
    path: Path, max_age: float = MAX_AGE, now: float | None = None
) -> tuple[bool, str]:
    """(healthy, why) for `glossary-bot health`."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return False, f"no heartbeat at {path} yet (starting, or never connected)"
    except OSError as exc:
        return False, f"cannot read the heartbeat HEARTBEAT_PATH={path}: {exc.strerror or exc}"
    if not stat.S_ISREG(status.st_mode):
        # A folder's time changes with what is written in it, not with the bot's health.
        return False, f"HEARTBEAT_PATH={path} is a folder or device, not a file: name a file"
    age = (time.time() if now is None else now) - status.st_mtime
    if age > max_age:
        return False, f"last heartbeat {age:.0f} s ago (more than {max_age:.0f} s)"
    return True, f"healthy: last heartbeat {age:.0f} s ago"
