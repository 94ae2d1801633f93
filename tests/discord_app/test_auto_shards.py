"""SHARD_COUNT unset: one process runs the shards Discord recommends (`GET /gateway/bot`'s
`shards`): one unsharded connection, as before, for a bot Discord does not shard; every shard
of a bot it does, with health and metrics naming them. tests/outsider/PLAN.md, "Shard count by
default (auto43)"."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

from bot.heartbeat import shards_lost
from tests.discord_app.helpers import define
from tests.fake_discord import FakeDiscord
from tests.ops.test_metrics import metrics_port, scrape
from tests.outsider.test_left36 import GUARD, _read_until, run_bot_by_hand, stopped
from tests.outsider.test_small_faults import SHORT_BEATS, _next_beat
from tests.polling import eventually
from tests.resilience.botproc import ROOT, BotProcess, glossary_bot


def latencies(port: int) -> set[str]:
    """The shards `glossary_gateway_latency_seconds` is exported for."""
    return {
        dict(labels)["shard"]
        for (name, labels), _ in scrape(port).items()
        if name == "glossary_gateway_latency_seconds"
    }


async def exported_for(port: int, shards: set[str]) -> None:
    """Each shard's latency is absent until the gateway acknowledges its first heartbeat."""

    async def exported() -> bool:
        return await asyncio.to_thread(latencies, port) == shards

    await eventually(exported, f"the gateway latency of shards {sorted(shards)} to be exported")


async def test_a_bot_discord_does_not_shard_runs_one_connection_as_before(
    tmp_path: Path,
) -> None:
    async with FakeDiscord(shard_count=1) as fake:
        alice = fake.add_user("alice")
        guild = fake.add_guild("Small Lab")
        guild.add_member(alice)
        channel = guild.add_text_channel("general")
        async with BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path, METRICS_PORT="0") as bot:
            _, card = await define(fake, alice, "rag", channel)
            assert card["embeds"], card
            port = await metrics_port(bot)
            await exported_for(port, {"0"})  # as before: an unsharded connection is shard 0
            connected = await bot.wait_for_output(r"connected as ")
            assert await bot.stop() == 0, bot.output
        assert connected.endswith(" entries"), connected  # no " on shards 0 of 1"
        assert "shard 0 ready" not in bot.output, bot.output
        assert "recommends" not in bot.output, bot.output
        assert [(r.shard_id, r.shard_count) for r in fake.sharding.identifies] == [(0, 1)]


async def test_a_bot_discord_shards_in_3_runs_all_3_shards_in_one_process(
    tmp_path: Path,
) -> None:
    """The fake, as Discord for a bot past 2,500 servers per connection, recommends 3 shards:
    the process without SHARD_COUNT runs all three (it was refused with 4011 and stopped);
    each guild is answered on its shard, the metrics and the health line name the shards.
    With `max_concurrency` 3 (left61), as Discord gives large bots: the three IDENTIFY at once,
    each in its own bucket (discord.py's pacing put 5 s between any two: 10 s of the test),
    the fake enforcing the rate limit."""
    async with FakeDiscord(shard_count=3, max_concurrency=3, enforce_identify_limit=True) as fake:
        alice = fake.add_user("alice")
        guilds = [fake.add_guild(f"Guild {shard}", shard=shard) for shard in range(3)]
        channels = [guild.add_text_channel("general") for guild in guilds]
        for guild in guilds:
            guild.add_member(alice)
        heartbeat = tmp_path / "heartbeat"
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            shards=[0, 1, 2],
            METRICS_PORT="0",
            HEARTBEAT_PATH=str(heartbeat),
            **SHORT_BEATS,
        )
        health_env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
        health_env["HEARTBEAT_PATH"] = str(heartbeat)
        async with bot:
            for shard, channel in enumerate(channels):
                _, card = await define(fake, alice, "rag", channel)
                assert card["embeds"], (shard, card)
            assert fake.gateway.live_shards() == {0, 1, 2}
            port = await metrics_port(bot)
            await exported_for(port, {"0", "1", "2"})
            await bot.wait_for_output(r"connected as .* on shards 0,1,2 of 3")
            for shard in range(3):
                await bot.wait_for_output(rf"shard {shard} ready: 1 server$")
            await bot.wait_for_output(r"healthy: heartbeat in", within=30)
            said = await _next_beat(heartbeat, "")
            status, told = await glossary_bot(health_env, tmp_path, "health")
            assert status == 0, told
            # Shard 1 lost while 0 and 2 serve: health names it (a reconnect, healthy).
            fake.gateway.hello_gate.clear()  # no new connection is answered from now on
            try:
                await fake.drop_gateway(shard_id=1)
                while 1 not in shards_lost(said):
                    said = await _next_beat(heartbeat, said)
                status, told = await glossary_bot(health_env, tmp_path, "health")
                assert status == 0, told
                assert "shard 1 not connected to Discord for " in told, told
                _, card = await define(fake, alice, "rag", channels[2])
                assert card["embeds"], card
            finally:
                fake.gateway.hello_gate.set()
            assert await bot.stop() == 0, bot.output
        assert "Traceback" not in bot.output, bot.output
        assert "Discord recommends 3 shards (SHARD_COUNT is not set)" in bot.output, bot.output
        ready = [(r.shard_id, r.shard_count) for r in fake.sharding.identifies]
        assert sorted(set(ready)) == [(0, 3), (1, 3), (2, 3)], ready
        assert fake.sharding.too_close() == []
        assert all(r.outcome == "ready" for r in fake.sharding.identifies), ready
        assert fake.violations == [], fake.violations


async def test_a_bot_that_cannot_learn_discords_count_runs_one_connection_and_says_so(
    tmp_path: Path,
) -> None:
    """`/gateway/bot` refused at the start: one connection, as before SHARD_COUNT was asked
    for, and a WARNING naming the setting; the bot answers."""
    async with FakeDiscord(shard_count=1) as fake:
        alice = fake.add_user("alice")
        guild = fake.add_guild("Small Lab")
        guild.add_member(alice)
        channel = guild.add_text_channel("general")
        fake.fail_next("GET", "/gateway/bot", status=403)
        async with BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path) as bot:
            _, card = await define(fake, alice, "rag", channel)
            assert card["embeds"], card
            assert await bot.stop() == 0, bot.output
    warned = [line for line in bot.lines if "could not ask Discord how many shards" in line]
    assert len(warned) == 1, bot.output
    assert "WARNING" in warned[0], warned
    assert "set SHARD_COUNT" in warned[0], warned
    assert "Traceback" not in bot.output, bot.output


async def test_the_fake_started_by_hand_with_2_shards_is_answered_by_a_bot_without_shard_count(
    tmp_path: Path,
) -> None:
    """`python -m tests.fake_discord --shards 2` recommends 2 shards, as Discord does for a big
    bot: `glossary-bot run` with only the three settings it prints connects both and answers."""
    fake = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fake_discord",
        "--shards",
        "2",
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert fake.stdin is not None
    assert fake.stdout is not None
    bot = None
    try:
        printed = await _read_until(fake.stdout, "waiting for the bot")
        assert "recommended count here: 2 shards" in printed, printed
        settings = dict(re.findall(r"(DISCORD_\w+)=(\S+)", printed))
        bot = await run_bot_by_hand(tmp_path, settings)
        await _read_until(fake.stdout, "connected.")  # both shards ready
        fake.stdin.write(b"/define kv cache\n")
        await fake.stdin.drain()
        answer = await _read_until(fake.stdout, "[KV Cache]")
        assert "Discord would refuse" not in answer, answer
        bot.send_signal(signal.SIGTERM)  # first: a bot left without its Discord retries
        async with asyncio.timeout(GUARD):
            assert await bot.wait() == 0
        fake.stdin.close()
        async with asyncio.timeout(GUARD):
            assert await fake.wait() == 0
    finally:
        await stopped(fake, bot)
