"""Operations, by hand (tests/outsider/PLAN.md, "Operations, by hand (ops47)"): the real
`glossary-bot run` against the fake Discord, its heartbeat read as `glossary-bot health` reads it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord_app.identify import IdentifyGate
from bot.heartbeat import STOPPED, check_heartbeat
from bot.settings import unknown_settings
from tests.fake_discord import FakeDiscord
from tests.polling import eventually
from tests.resilience.botproc import BotProcess


def _stopped_at(heartbeat: Path) -> float:
    first = heartbeat.read_text("utf-8").splitlines()[0]
    assert first.startswith(STOPPED), first
    return float(first.removeprefix(STOPPED).split()[0])


async def test_health_says_stopped_after_a_stop_before_the_first_heartbeat(
    tmp_path: Path,
) -> None:
    """README, Health: "After a clean stop (`docker stop`, SIGTERM) it says `stopped: the bot
    stopped cleanly N s ago`", and "a bot started again says `no heartbeat … yet (starting, or
    never connected)` until its first heartbeat". A bot stopped while it was still starting
    (here: Discord slow to answer the login) left no line, so `health` said "starting, or never
    connected" of a stopped bot; and while it started, an earlier run's stop line stood, so
    `health` said "stopped" of a starting one. The delay only keeps the login waiting: answered
    sooner, the bot connects, and its stop is said as ever."""
    heartbeat = tmp_path / "heartbeat"
    heartbeat.write_text(f"{STOPPED}{time.time() - 3600:.0f}\n", "utf-8")  # an earlier run's
    started = time.time()
    async with FakeDiscord(shard_count=1) as fake:
        fake.faults.delay("GET", "/users/@me", 5.0)
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            SHARD_COUNT="1",
            HEARTBEAT_PATH=str(heartbeat),
        )
        await bot.start(wait_ready=False)
        await eventually(
            lambda: ("GET", "/api/v10/users/@me") in fake.requests, "the bot to log in"
        )
        # Starting: the earlier run's stop line is gone (a machine slow enough to let the
        # login be answered meanwhile has the first heartbeat written: healthy).
        healthy, said = check_heartbeat(heartbeat)
        starting = f"no heartbeat at {heartbeat} yet (starting, or never connected)"
        assert healthy or said == starting, said
        code = await bot.stop(within=10)
    assert code == 0, bot.output
    healthy, said = check_heartbeat(heartbeat)
    assert not healthy
    assert said.startswith("stopped: the bot stopped cleanly "), said
    assert _stopped_at(heartbeat) >= int(started), bot.output  # this run's stop, not the last


async def test_health_says_stopped_on_an_error_when_the_start_fails(tmp_path: Path) -> None:
    """A token Discord refuses (exit 2) ends the bot before its first heartbeat: `health` said
    "starting, or never connected" of a bot that had stopped for good."""
    heartbeat = tmp_path / "heartbeat"
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            HEARTBEAT_PATH=str(heartbeat),
            DISCORD_TOKEN="wrong-token-Zm9vYmFyYmF6cXV4",
        )
        await bot.start(wait_ready=False)
        code = await bot.exited(within=30)
    assert code == 2, bot.output
    healthy, said = check_heartbeat(heartbeat)
    assert not healthy
    assert said.startswith("stopped: the bot stopped on an error "), said


def test_the_compose_password_in_env_is_no_unknown_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """compose.yaml (and the README's "Several processes") has the operator put
    POSTGRES_PASSWORD in `.env` beside it, which is also the `.env` that `glossary-bot run`
    reads in that folder: every start warned "POSTGRES_PASSWORD in .env is not a setting, so
    it is ignored", of a line the project's own instructions wrote. A name that is no setting
    is still named."""
    (tmp_path / ".env").write_text("POSTGRES_PASSWORD=s3cretpw\nDATABSE_PATH=x.db\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    said = unknown_settings()
    assert not [line for line in said if "POSTGRES_PASSWORD" in line], said
    assert [line for line in said if "DATABSE_PATH" in line], said


class _OneBucket:
    """`Store.identify_slot` as PostgreSQL's advisory lock is to the processes: one holder at a
    time, waiters served in turn; counts who took it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.taken = 0
        self.asked = asyncio.Event()

    @contextlib.asynccontextmanager
    async def identify_slot(self, bucket: int) -> AsyncIterator[None]:
        self.asked.set()
        async with self.lock:
            self.taken += 1
            yield


async def test_a_cancelled_wait_for_the_identify_turn_takes_no_window() -> None:
    """A shard waiting for its turn to IDENTIFY (another process holds the bucket) whose
    connection discord.py gives up on (its 60 s `wait_for` around a reconnect, 180 s at launch)
    is cancelled; its holding task was not, so it took the bucket later and held it a window
    that no IDENTIFY used, while the other processes' shards waited behind it."""
    slots = _OneBucket()
    gate = IdentifyGate(slots, window=5.0, max_concurrency=1)  # type: ignore[arg-type]
    await slots.lock.acquire()  # another process's shard identifies
    waiting = asyncio.create_task(gate.wait_turn(0))
    await slots.asked.wait()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    slots.lock.release()
    async with slots.identify_slot(0):  # the next shard's turn, after any waiter before it
        pass
    assert slots.taken == 1  # the next shard's only
    gate.close()
