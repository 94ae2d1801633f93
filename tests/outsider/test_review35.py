"""Review of this session's changes (task review35, PLAN.md "Review of this session's changes
(review35)").

Through the real bot (discord.py) against the fake Discord on real SQLite files."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import sqlite3
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot import collector
from bot.discord_app import health
from bot.discord_app.app import STOP_SECONDS, GlossaryBot
from bot.heartbeat import check_heartbeat
from bot.storage import Store
from bot.storage.backend import Migrate
from bot.storage.sqlite.migrate import APPLICATION_ID, latest_version
from tests.clients import ConnectedClient
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define
from tests.resilience.botproc import BotProcess

from .conftest import Scene

STUCK = 30.0  # bounds a hang only


def _note_set_aside(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """An event set once the bot set aside what it holds (its first ready)."""
    noted = asyncio.Event()
    real = collector.set_aside

    def set_aside() -> None:
        real()
        noted.set()

    monkeypatch.setattr(collector, "set_aside", set_aside)
    return noted


async def _remove_and_readd(scene: Scene) -> None:
    """The bot removed from the other server (GUILD_DELETE), then back (GUILD_CREATE); each
    followed by a /define in the first server, read after the event (one shard, in order)."""
    fake = scene.fake
    gid = scene.other_guild.id
    await fake.gateway.dispatch("GUILD_DELETE", {"id": str(gid)}, guild_id=gid)
    await define(fake, scene.alice, "rag", scene.channel)
    await fake.gateway.end_outage(gid)  # its GUILD_CREATE, as when the bot is added back
    await define(fake, scene.alice, "rag", scene.channel)


async def test_r1_a_server_removed_and_readded_200_times_is_freed_each_time(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R1: what was set aside at the first ready stays out of full collections, so a server's
    objects held then and dropped in cycles stay until a stop. Removed and re-added 200 times,
    with a /define in it each time (its server cache made): every later copy is freed by a full
    collection, nothing more is set aside, and at most the copy held at connecting stays."""
    set_aside = _note_set_aside(monkeypatch)
    fake = scene.fake
    gid = scene.other_guild.id
    async with start_bot(store):
        await asyncio.wait_for(set_aside.wait(), STUCK)
        frozen = gc.get_freeze_count()
        await define(fake, scene.alice, "rag", scene.other_channel)
        # Each settle spends one of discord.py's 110 gateway sends a minute; one shard's events
        # arrive in order anyway.
        fake.settle_before_actions = False
        for _ in range(200):
            await _remove_and_readd(scene)
            _, answer = await define(fake, scene.alice, "lora", scene.other_channel)
            assert answer["embeds"], answer
        gc.collect()
        # Not set aside (young), every copy but the server's current one is freed: its
        # channels and members with it.
        assert _copies(gid) == (1, len(scene.other_guild.channels), 1)
        assert gc.get_freeze_count() <= frozen  # nothing more set aside (refcounting frees some)


def _copies(guild_id: int) -> tuple[int, int, int]:
    """discord.py's objects of this server the collector tracks (none has a weakref): its
    Guild objects, their channels, and the bot's Member objects in it."""
    objects = gc.get_objects()
    guilds = [o for o in objects if isinstance(o, discord.Guild) and o.id == guild_id]
    channels = [o for o in objects if isinstance(o, discord.abc.GuildChannel)]
    members = [o for o in objects if isinstance(o, discord.Member) and o.guild.id == guild_id]
    return (
        len(guilds),
        sum(1 for c in channels if c.guild.id == guild_id),
        sum(1 for m in members if m.bot),
    )


async def test_r2_a_bot_in_a_reconnect_loop_sets_aside_once_and_frees_each_dropped_cache(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R2: sessions invalidated, not resumable, 6 times: each a new IDENTIFY and READY, and
    discord.py builds its cache of the servers anew. Set aside once (the first ready), not at
    each; every dropped cache after it is freed by a full collection once its ready is done
    (discord.py's `_delay_ready` holds the servers up to `guild_ready_timeout`)."""
    calls: list[None] = []
    real = collector.set_aside
    monkeypatch.setattr(collector, "set_aside", lambda: (calls.append(None), real())[1])
    readies: list[None] = []
    ready = asyncio.Event()
    on_ready = GlossaryBot.on_ready

    async def counted(self: GlossaryBot) -> None:
        await on_ready(self)
        readies.append(None)
        ready.set()

    monkeypatch.setattr(GlossaryBot, "on_ready", counted)

    async def no_pause(*_: object, **__: object) -> None:  # discord.py's 5 s between IDENTIFYs
        return None

    monkeypatch.setattr(discord.Client, "before_identify_hook", no_pause)
    fake = scene.fake
    async with start_bot(store):
        for _ in range(6):
            await asyncio.wait_for(ready.wait(), STUCK)
            ready.clear()
            await fake.gateway.invalidate_session(resumable=False)
        await asyncio.wait_for(ready.wait(), STUCK)
        _, answer = await define(fake, scene.alice, "lora", scene.other_channel)
        assert answer["embeds"], answer
        gc.collect()
        assert (len(readies), calls) == (7, [None])
        assert _copies(scene.other_guild.id) == (1, len(scene.other_guild.channels), 1)


async def test_r3_after_a_reload_nothing_is_set_aside_and_dropped_servers_go(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3: a glossary reload gives back what was set aside; removals, re-adds and a /term add
    after it are freed as before, and nothing is set aside again (the reload's old glossary
    and the servers' caches of it die in cycles)."""
    set_aside = _note_set_aside(monkeypatch)
    fake = scene.fake
    gid = scene.other_guild.id
    async with start_bot(store) as bot:
        await asyncio.wait_for(set_aside.wait(), STUCK)
        assert bot.state.reload().startswith("reloaded")
        assert gc.get_freeze_count() == 0
        fake.settle_before_actions = False
        for _ in range(5):
            await _remove_and_readd(scene)
        gc.collect()
        assert gc.get_freeze_count() == 0
        assert _copies(gid) == (1, len(scene.other_guild.channels), 1)
    assert gc.get_freeze_count() == 0


class _HeldDisk:
    """`health`'s clock, read in a worker thread just before each write: from the `held`th
    such read on (the keeper's second beat), each waits until the test lets the disk go."""

    def __init__(self, held: int, *, all_after: bool) -> None:
        self.reads = 0
        self.held = held
        self.all_after = all_after
        self.entered = threading.Event()
        self.go = threading.Event()

    def time(self) -> float:
        if threading.current_thread() is not threading.main_thread():
            self.reads += 1
            if self.reads == self.held or (self.all_after and self.reads > self.held):
                self.entered.set()
                self.go.wait()
        return time.time()


@pytest.mark.parametrize("hung", [False, True], ids=["slow-disk", "hung-disk"])
async def test_r7_a_beat_held_past_the_stops_deadline_never_lands_after_the_stopped_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hung: bool
) -> None:
    """R7: the heartbeat's stop waits for the keeper until the stop's deadline, then cancels it
    and writes "stopped at …". A beat held in its thread past that deadline (a slow disk) still
    landed after the line: `health` read a stopped bot as healthy. A disk that hangs held the
    stop line's write too, and the stop awaited it without end. Now a beat not yet written
    when the stop is said is not written, the line waits for one under way, and the stop waits
    for the line only until its deadline (the line is written once the disk is back)."""
    clock = _HeldDisk(2, all_after=hung)
    monkeypatch.setattr(health, "time", SimpleNamespace(time=clock.time))
    written = threading.Event()
    mark_stopped = health.mark_stopped

    def marked(path: Path, **how: bool) -> None:  # on_error, beat (mend73)
        mark_stopped(path, **how)
        written.set()

    monkeypatch.setattr(health, "mark_stopped", marked)
    loop = asyncio.get_running_loop()
    store = await Store.open(tmp_path / "bot.db")
    beat = tmp_path / "heartbeat"
    try:
        stop = asyncio.Event()
        keeper = asyncio.create_task(
            health.keep_heartbeat(ConnectedClient(), store, beat, interval=0, stop=stop)  # type: ignore[arg-type]
        )
        await loop.run_in_executor(None, clock.entered.wait)  # the second beat is writing
        async with asyncio.timeout(STUCK):  # bounds a hang only: before, a hung disk hung it
            await health.stop_heartbeat(keeper, stop, beat, 0.0)
        assert keeper.done()
        clock.go.set()  # the disk is back
        await loop.run_in_executor(None, written.wait)
        healthy, why = check_heartbeat(beat)
        assert (healthy, why.split(" the bot")[0]) == (False, "stopped:"), why
    finally:
        clock.go.set()
        await store.close()


async def test_r4_a_use_stamped_behind_counts_from_when_it_reached_the_bot(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """R4: a /define held up 2 s on its way (its id 2 s behind) counts when it reached the bot:
    the next one is told to wait the limit's whole 10 s (less a moment), not 8."""
    fake = scene.fake
    async with start_bot(store, cooldown=(1, 10.0)):
        await define(fake, scene.bob, "rag", scene.channel)  # the clocks' offset, on time
        first = await fake.slash(
            scene.alice, "define", {"term": "rag"}, channel=scene.channel, held_up=2.0
        )
        assert "going a bit fast" not in str(await first.final_message())
        _, again = await define(fake, scene.alice, "rag", scene.channel)
        wait = re.fullmatch(r"You're going a bit fast: try again in (\d+) s\.", again["content"])
        assert wait is not None, again
        assert 9 <= int(wait.group(1)) <= 10, again


@pytest.mark.parametrize("made", ["empty-wal", "empty-vacuumed", "zero-bytes"])
async def test_r8_a_new_empty_file_however_made_is_the_bots(tmp_path: Path, made: str) -> None:
    """R8: `is_ours` takes a new empty file as the bot's: one switched to WAL mode (a header,
    a `-wal`, no table), one given a header by VACUUM, and a 0-byte file. Opened, each gets the
    schema and the bot's id; then read as a backup is read (`Migrate.NEVER`)."""
    path = tmp_path / "bot.db"
    if made == "zero-bytes":
        path.touch()
    else:
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA journal_mode=WAL" if made == "empty-wal" else "VACUUM")
        conn.close()
    store = await Store.open(path)
    await store.close()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert conn.execute("PRAGMA user_version").fetchone() == (latest_version(),)
    finally:
        conn.close()
    store = await Store.open(path, migrate=Migrate.NEVER)
    await store.close()


async def test_r7_a_bot_whose_heartbeat_file_hangs_still_exits_on_sigterm(
    scene: Scene, tmp_path: Path
) -> None:
    """R7, the process: a heartbeat file whose every open hangs (a FIFO nobody reads stands for
    a hung network disk). SIGTERM: the bot exits within the stop's deadline, with its status;
    it hung in `asyncio.run`'s join of its default executor, whose thread the open held. Found
    on the way: a stop outlasting `guild_ready_timeout` after connecting logged discord.py's
    `ready` fired on the closed client (a traceback); no longer."""
    heartbeat = tmp_path / "heartbeat"
    os.mkfifo(heartbeat)
    async with BotProcess(
        scene.fake, tmp_path / "g.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat)
    ) as bot:
        assert await bot.stop(within=STOP_SECONDS + 5) == 0
    assert "Traceback" not in bot.output, bot.output
