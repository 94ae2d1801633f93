"""Shards through real discord.py AutoShardedClients: /gateway/bot, routing by guild id,
IDENTIFY validation and the IDENTIFY rate limit."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest

from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, run_client

from .shard_bot import IdentifyQueue, ShardBot

WINDOW = 0.3  # the fake's identify window for these tests (Discord's is 5 s)


@dataclass
class ShardedWorld:
    fake: FakeDiscord
    guilds: list[FakeGuild]  # guilds[i] lives on shard i
    channels: list[FakeChannel]
    alice: FakeUser


@contextlib.asynccontextmanager
async def sharded_world(**options: object) -> AsyncIterator[ShardedWorld]:
    options = {
        "shard_count": 4,
        "identify_window": WINDOW,
        "enforce_identify_limit": True,
    } | options
    async with FakeDiscord(**options) as fake:  # type: ignore[arg-type]
        with fake.patch_discord_py():
            alice = fake.add_user("alice")
            shards = range(fake.sharding.shard_count)
            guilds = [fake.add_guild(f"Guild {i}", shard=i) for i in shards]
            channels = []
            for guild in guilds:
                guild.add_member(alice)
                channels.append(guild.add_text_channel("general"))
            yield ShardedWorld(fake, guilds, channels, alice)
        report = fake.violation_report()
        if report is not None:
            pytest.fail(report, pytrace=False)


async def test_guild_ids_land_on_the_shard_asked_for() -> None:
    async with sharded_world() as world:
        assert [(g.id >> 22) % 4 for g in world.guilds] == [0, 1, 2, 3]
        assert len({g.id for g in world.guilds}) == 4


async def test_two_clients_split_the_shards_and_see_only_their_guilds() -> None:
    async with sharded_world(max_concurrency=2) as world:
        fake = world.fake
        queue = IdentifyQueue(window=WINDOW, max_concurrency=2)
        first = ShardBot(shard_ids=[0, 1], shard_count=4, queue=queue)
        second = ShardBot(shard_ids=[2, 3], shard_count=4, queue=queue)
        async with run_client(first, fake), run_client(second, fake):
            ids = [g.id for g in world.guilds]
            assert {g.id for g in first.guilds} == set(ids[:2])
            assert {g.id for g in second.guilds} == set(ids[2:])
            assert fake.gateway.live_shards() == {0, 1, 2, 3}
            for shard, channel in enumerate(world.channels):
                handle = await fake.slash(world.alice, "where", channel=channel)
                message = await handle.final_message()
                assert message["content"] == f"shard {shard}"
                owner = first if shard < 2 else second
                assert owner.get_guild(world.guilds[shard].id) is not None
            # A DM goes to shard 0, which the first client runs.
            dm = await fake.slash(world.alice, "where", channel=fake.dm_channel(world.alice))
            assert (await dm.final_message())["content"] == "shard 0"
        ready = [r for r in fake.sharding.identifies if r.outcome == "ready"]
        assert [(r.shard_id, r.shard_count, r.bucket) for r in ready] == [
            (0, 4, 0),
            (1, 4, 1),
            (2, 4, 0),
            (3, 4, 1),
        ]
        by_bucket = fake.sharding.times_by_bucket()
        assert set(by_bucket) == {0, 1}
        for times in by_bucket.values():
            assert len(times) == 2
            assert times[1] - times[0] >= WINDOW
        assert fake.sharding.too_close() == []
        assert fake.sharding.remaining == 1000 - 4


async def test_interactions_reach_only_the_client_of_their_shard() -> None:
    async with sharded_world() as world:
        fake = world.fake
        seen: dict[str, list[int]] = {"first": [], "second": []}
        queue = IdentifyQueue(window=WINDOW)
        first = ShardBot(shard_ids=[0, 1], shard_count=4, queue=queue)
        second = ShardBot(shard_ids=[2, 3], shard_count=4, queue=queue)

        def record(name: str) -> object:
            async def on_interaction(interaction: discord.Interaction) -> None:
                seen[name].append(interaction.guild_id or 0)

            return on_interaction

        first.add_listener(record("first"), "on_interaction")
        second.add_listener(record("second"), "on_interaction")
        async with run_client(first, fake), run_client(second, fake):
            for channel in world.channels:
                await (await fake.slash(world.alice, "where", channel=channel)).final_message()
        ids = [g.id for g in world.guilds]
        assert seen == {"first": ids[:2], "second": ids[2:]}


async def test_gateway_bot_answers_the_configured_shards_and_limits() -> None:
    async with sharded_world(max_concurrency=4) as world:
        fake = world.fake
        fake.sharding.total, fake.sharding.remaining = 2000, 1500
        fake.sharding.reset_after_ms = 60_000
        client = ShardBot(shard_ids=None, shard_count=None, queue=None)  # asks /gateway/bot
        async with run_client(client, fake):
            assert client.shard_count == 4
            assert set(client.shards) == {0, 1, 2, 3}
            limits = await client.fetch_session_start_limits()
        assert (limits.total, limits.remaining, limits.reset_after, limits.max_concurrency) == (
            2000,
            1500 - 4,
            60_000,
            4,
        )
        assert ("GET", "/api/v10/gateway/bot") in fake.requests
        # Four buckets: all four shards may identify at once.
        assert fake.sharding.too_close() == []


async def test_identify_too_soon_in_a_bucket_gets_invalid_session() -> None:
    async with sharded_world(shard_count=2) as world:
        fake = world.fake
        client = ShardBot(shard_ids=[0, 1], shard_count=2, queue=None)  # does not wait
        async with run_client(client, fake):
            pass
        outcomes = [(r.shard_id, r.outcome) for r in fake.sharding.identifies]
        assert outcomes[0] == (0, "ready")
        assert (1, "rate_limited") in outcomes
        assert outcomes[-1] == (1, "ready")  # discord.py identifies again and gets through
        ready = fake.sharding.times_by_bucket()[0]
        assert ready[1] - ready[0] >= WINDOW
        assert fake.sharding.too_close() != []  # the record shows the rule was broken
        violations = fake.pop_violations()
        assert violations
        assert all("op 9 INVALID_SESSION" in v.detail for v in violations)


@pytest.mark.parametrize(
    ("shard_id", "shard_count", "code"),
    [(4, 4, 4010), (0, 2, 4010), (None, None, 4011)],
    ids=["id-not-below-count", "count-not-the-fakes", "unsharded-when-sharding-is-required"],
)
async def test_bad_shards_are_refused(
    shard_id: int | None, shard_count: int | None, code: int
) -> None:
    async with sharded_world() as world:
        fake = world.fake
        client = discord.Client(
            intents=discord.Intents.default(), shard_id=shard_id, shard_count=shard_count
        )
        with pytest.raises(discord.ConnectionClosed) as raised:
            async with run_client(client, fake, synced=False):
                pass
        assert raised.value.code == code
        [record] = fake.sharding.identifies
        assert record.outcome == "invalid_shard"
        [violation] = fake.pop_violations()
        assert f"IDENTIFY refused with {code}" in violation.detail


async def test_a_shard_identified_twice_at_once_is_refused() -> None:
    async with sharded_world(enforce_identify_limit=False) as world:
        fake = world.fake
        owner = ShardBot(shard_ids=[0, 1], shard_count=4, queue=None)
        async with run_client(owner, fake):
            intruder = discord.Client(intents=discord.Intents.default(), shard_id=1, shard_count=4)
            runner = asyncio.create_task(intruder.start(fake.token))
            try:
                await fake.waiter.wait_for(
                    lambda: any(
                        r.outcome == "already_identified" for r in fake.sharding.identifies
                    ),
                    "the second IDENTIFY of shard 1",
                )
            finally:
                await intruder.close()
                await asyncio.wait({runner})
            # The first connection keeps its shard and its guild.
            assert fake.gateway.live_shards() == {0, 1}
            handle = await fake.slash(world.alice, "where", channel=world.channels[1])
            assert (await handle.final_message())["content"] == "shard 1"
        violations = fake.pop_violations()
        assert violations
        assert all("4005" in v.detail for v in violations)
