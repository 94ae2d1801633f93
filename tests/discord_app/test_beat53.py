"""beat53: the heartbeat is written as soon as what it says changes (the database lost or back,
Discord lost or back), not only at its next periodic beat (HEARTBEAT_INTERVAL, 10 s): `health`
read the bot up to 10 s late. The real discord.py client against the fake Discord, a real
SQLite file, `keep_heartbeat` given what the runner gives it (`BotState.health_changed`)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import health
from bot.discord_app.app import GlossaryBot
from bot.heartbeat import NOT_CONNECTED, check_heartbeat
from bot.storage import Store
from tests.clients import ConnectedClient
from tests.polling import eventually

from .conftest import Scene, StartBot

# Well under the periodic beat (10 s): met only by a beat written as the state changes. It
# bounds a hang; the look it waits for takes milliseconds (LOOK_GAP at most besides).
SOON = 5.0
assert SOON < health.HEARTBEAT_INTERVAL


@contextlib.asynccontextmanager
async def beating(bot: GlossaryBot, path: Path) -> AsyncIterator[None]:
    """`keep_heartbeat` on `bot` as `runner._connect_until_stopped` starts it, until the block
    ends; its first beat written."""
    stop = asyncio.Event()
    keeper = asyncio.create_task(
        health.keep_heartbeat(
            bot,
            lambda: bot.state.store,
            path,
            rest=bot.rest,
            stop=stop,
            waiting=lambda: bot.state.database_wait,
            changed=bot.state.health_changed,
        )
    )
    try:
        await eventually(lambda: says(path)[0], "the first beat, healthy", within=SOON)
        yield
    finally:
        await health.stop_heartbeat(keeper, stop, path, 5.0)


def says(path: Path) -> tuple[bool, str]:
    return check_heartbeat(path)


async def test_health_says_the_database_lost_and_back_at_once(
    start_bot: StartBot, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    store = await Store.open(folder / "bot.db", flush_interval=None)
    beat = tmp_path / "heartbeat"
    async with start_bot(store) as bot, beating(bot, beat):
        shutil.rmtree(folder)  # the volume gone under the bot
        store.record_lookup(1, "rag")
        assert not await store.flush()  # a write meets it: the bot knows now
        await eventually(lambda: not says(beat)[0], "`health` unhealthy", within=SOON)
        why = says(beat)[1]
        assert why.startswith("unhealthy: connected to Discord, but the database at "), why
        assert "is not writable" in why, why

        folder.mkdir()  # put back, empty
        assert await store.flush()  # the next write reaches it
        await eventually(lambda: says(beat)[0], "`health` healthy again", within=SOON)
        assert says(beat)[1].startswith("healthy: last heartbeat "), says(beat)


async def test_health_says_discord_lost_and_back_at_once(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path
) -> None:
    beat = tmp_path / "heartbeat"
    async with start_bot(store) as bot, beating(bot, beat):
        scene.fake.gateway.hello_gate.clear()  # no new connection is answered meanwhile
        try:
            await scene.fake.drop_gateway()
            await eventually(
                lambda: NOT_CONNECTED in says(beat)[1], "`health` says it", within=SOON
            )
            healthy, why = says(beat)
            assert healthy, why  # a reconnect, within the grace (MAX_AGE)
            assert re.search(rf"; {NOT_CONNECTED} for \d+ s \(reconnecting\)$", why), why
        finally:
            scene.fake.gateway.hello_gate.set()
        await eventually(lambda: bot.is_ready() and health.is_connected(bot), "back")
        await eventually(lambda: _healthy_only(beat), "`health` healthy, nothing more", within=SOON)


def _healthy_only(path: Path) -> bool:
    healthy, why = says(path)
    return healthy and re.fullmatch(r"healthy: last heartbeat \d+ s ago", why) is not None


async def test_changes_told_at_once_coalesce_and_a_look_that_changes_nothing_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Fifty changes told before the heartbeat looks are one look; a look whose state is the
    one the file says writes nothing (the periodic beat, an hour off here, is the liveness)."""
    looks: list[str | None] = []
    writes: list[str | None] = []
    reason, write = health.unhealthy_reason, health._write_heartbeat

    async def looked(*args: Any) -> str | None:
        looks.append(said := await reason(*args))
        return said

    def wrote(path: Path, said: str | None, *args: Any) -> str | None:
        writes.append(said)
        return write(path, said, *args)

    monkeypatch.setattr(health, "unhealthy_reason", looked)
    monkeypatch.setattr(health, "_write_heartbeat", wrote)
    beat, stop, changed = tmp_path / "heartbeat", asyncio.Event(), asyncio.Event()
    keeper = asyncio.create_task(
        health.keep_heartbeat(
            ConnectedClient(),  # type: ignore[arg-type]
            None,
            beat,
            interval=3600,
            stop=stop,
            changed=changed,
        )
    )
    try:
        await eventually(lambda: len(writes) == 1, "the first beat", within=SOON)
        for _ in range(50):
            changed.set()
        await eventually(lambda: len(looks) == 2, "one look at the fifty", within=SOON)
    finally:
        stop.set()
        await keeper
    assert len(looks) == 2, looks
    assert len(writes) == 1, writes  # the database unopened, said at the first beat already
    assert "could not be opened at start" in str(writes[0]), writes
