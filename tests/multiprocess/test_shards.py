"""One bot as two `glossary-bot run` processes, two shards each (SHARD_COUNT=4, SHARD_IDS 0,1
and 2,3), sharing one PostgreSQL database, against a fake Discord with a guild on every shard
and Discord's IDENTIFY rate limit enforced.

Needs a real PostgreSQL: TEST_DATABASE_URL (CI sets it; locally
`export TEST_DATABASE_URL=$(bash ../shared/tools/postgres.sh | tail -1)`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest

from bot.storage import Migrate, Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import define, define_until_card, embed_of
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser
from tests.resilience.botproc import BotProcess, bot_env, glossary_bot
from tests.storage.conftest import fresh_schema

pytestmark = pytest.mark.postgres  # a PostgreSQL the processes share

SHARDS = 4
WINDOW = 0.5  # the fake's IDENTIFY window (Discord's is 5 s); the bots wait a little longer
FIRST, SECOND = [0, 1], [2, 3]
TERMS = ("rag", "kv cache", "mixture of experts")


@dataclass
class World:
    fake: FakeDiscord
    url: str  # the PostgreSQL schema both processes share
    guilds: list[FakeGuild]  # guilds[i] lives on shard i
    channels: list[FakeChannel]
    alice: FakeUser
    moderator: FakeUser  # Manage Server in guild 1
    cards: Counter[int] = field(default_factory=Counter)  # cards shown, per guild id

    async def card(self, shard: int, term: str) -> None:
        """/define `term` in the guild on `shard`; it must answer with a card."""
        _, message = await define(self.fake, self.alice, term, self.channels[shard])
        assert message["embeds"], f"no card for {term!r} on shard {shard}: {message}"
        self.cards[self.guilds[shard].id] += 1

    async def stored(self, shards: list[int]) -> int:
        store = await Store.open(self.url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            return sum([await store.total_lookups(self.guilds[s].id) for s in shards])
        finally:
            await store.close()

    def made(self, shards: list[int]) -> int:
        return sum(self.cards[self.guilds[s].id] for s in shards)

    def process(self, shards: list[int], tmp_path: Path) -> BotProcess:
        name = "-".join(map(str, shards))
        return BotProcess(
            self.fake,
            tmp_path / "unused.db",  # set, and must stay unused
            cwd=tmp_path,
            shards=shards,
            DATABASE_URL=self.url,
            SHARD_COUNT=str(SHARDS),
            SHARD_IDS=",".join(map(str, shards)),
            IDENTIFY_WINDOW=str(WINDOW),
            HEARTBEAT_PATH=str(tmp_path / f"heartbeat-{name}"),
            COOLDOWN_USES="1000",
        )


@contextlib.asynccontextmanager
async def world(*, heartbeat_interval_ms: int = 41_250) -> AsyncIterator[World]:
    fake = FakeDiscord(
        shard_count=SHARDS,
        max_concurrency=2,  # buckets {0, 2} and {1, 3}: each process needs both
        identify_window=WINDOW,
        enforce_identify_limit=True,
        heartbeat_interval_ms=heartbeat_interval_ms,
    )
    # Over a hundred actions a minute: no heartbeat bounce per action (discord.py rate-limits
    # its gateway sends), and nothing here clicks a view that would need it.
    fake.settle_before_actions = False
    async with fresh_schema(TEST_DATABASE_URL) as url, fake:
        alice = fake.add_user("alice")
        moderator = fake.add_user("mo")
        guilds = [fake.add_guild(f"Guild {i}", shard=i) for i in range(SHARDS)]
        channels = []
        for guild in guilds:
            guild.add_member(alice)
            channels.append(guild.add_text_channel("general"))
        mods = guilds[1].add_role("Mods", permissions=discord.Permissions(manage_guild=True).value)
        guilds[1].add_member(moderator, roles=[mods])
        yield World(fake, url, guilds, channels, alice, moderator)
        report = fake.violation_report()
        if report is not None:
            pytest.fail(report, pytrace=False)


async def import_aliases(world: World, items: list[dict[str, object]], tmp_path: Path) -> None:
    """`glossary-bot aliases import` as an operator runs it, in a process of its own."""
    file = tmp_path / "aliases.json"
    file.write_text(json.dumps(items), "utf-8")
    env = bot_env(world.fake, tmp_path / "unused.db", DATABASE_URL=world.url)
    code, output = await glossary_bot(env, tmp_path, "aliases", "import", str(file))
    assert code == 0, output
    assert f"added {len(items)}" in output, output


async def import_terms(world: World, shard: int, tmp_path: Path) -> None:
    """`glossary-bot terms import` into the guild on `shard`, in a process of its own."""
    file = tmp_path / "terms.md"
    file.write_text(
        "Our words ¶\nOur team's own.\n\n"
        "Qorbflux ¶\nOur team's word for a nightly rerank of the search index.\n"
    )
    env = bot_env(world.fake, tmp_path / "unused.db", DATABASE_URL=world.url)
    guild = str(world.guilds[shard].id)
    args = ("terms", "import", str(file), "--guild", guild, "--category", "Fundamentals")
    code, output = await glossary_bot(env, tmp_path, *args)
    assert code == 0, output
    assert "1 added" in output, output


async def health(process: BotProcess) -> int:
    code, _ = await glossary_bot(dict(process.env), process.cwd, "health")
    return code


async def test_two_processes_share_one_bot(tmp_path: Path) -> None:
    async with world() as w, contextlib.AsyncExitStack() as running:
        first, second = w.process(FIRST, tmp_path), w.process(SECOND, tmp_path)
        # Both at once: their IDENTIFYs meet in both rate-limit buckets.
        running.callback(lambda: print(f"first:\n{first.output}\nsecond:\n{second.output}"))
        running.push_async_callback(first.__aexit__)  # stops it, unless already stopped
        running.push_async_callback(second.__aexit__)
        await asyncio.gather(first.start(), second.start())
        # Every guild answers, each from the process that runs its shard.
        for shard in range(SHARDS):
            for term in TERMS:
                await w.card(shard, term)
        assert w.fake.gateway.live_shards() == {0, 1, 2, 3}
        assert "[shards 0,1]" in await first.wait_for_output(r"shard 1 ready")
        assert "[shards 2,3]" in await second.wait_for_output(r"shard 3 ready")

        # `glossary-bot health` answers for each process, from its own heartbeat file.
        for process in (first, second):
            await process.wait_for_output(r"healthy: heartbeat in")
            assert await health(process) == 0
        # An alias added in guild 1 (the first process) answers there and nowhere else.
        handle = await w.fake.slash(
            w.moderator,
            "alias add",
            {"alias": "qwzx frobnicator", "term": "kv-cache"},
            channel=w.channels[1],
        )
        assert (await handle.final_message())["content"].startswith("Added")
        _, card = await define(w.fake, w.alice, "qwzx frobnicator", w.channels[1])
        assert "KV" in embed_of(card)["title"], card
        w.cards[w.guilds[1].id] += 1
        for shard in (0, 2, 3):
            _, message = await define(w.fake, w.alice, "qwzx frobnicator", w.channels[shard])
            assert not message["embeds"], (shard, message)

        # An import from a third process is seen by both (within 2 s: bench/alias_bench.py).
        await import_aliases(
            w,
            [
                {"guild_id": w.guilds[0].id, "alias": "zyxw blorptron", "entry_id": "rag"},
                {"guild_id": w.guilds[3].id, "alias": "zyxw blorptron", "entry_id": "rag"},
            ],
            tmp_path,
        )
        for shard in (0, 3):
            card = await define_until_card(w.fake, w.alice, "zyxw blorptron", w.channels[shard])
            assert "RAG" in embed_of(card)["title"] or "Retrieval" in embed_of(card)["title"]
            w.cards[w.guilds[shard].id] += 1

        # So is a server's own term imported by an operator, on either process's shard.
        for shard in (2, 1):
            await import_terms(w, shard, tmp_path)
            card = await define_until_card(w.fake, w.alice, "qorbflux", w.channels[shard])
            assert embed_of(card)["title"] == "Qorbflux", card
            w.cards[w.guilds[shard].id] += 1
        _, message = await define(w.fake, w.alice, "qorbflux", w.channels[0])
        assert not message["embeds"], message  # a term of guilds 1 and 2 only

        # Everything the second process counted so far reaches the database; then a burst
        # it may not get to write before kill -9.
        # (Another process's flush: no event to await, so one query per round trip, bounded.)
        made_before = w.made(SECOND)
        try:
            async with asyncio.timeout(60):
                while await w.stored(SECOND) < made_before:
                    pass
        except TimeoutError:
            pytest.fail("the second process never flushed its counts")
        for term in TERMS:
            await w.card(2, term)
            await w.card(3, term)
        burst = w.made(SECOND) - made_before
        await second.stop(signal.SIGKILL)

        # The first process's guilds keep answering.
        for shard in FIRST:
            for term in TERMS:
                await w.card(shard, term)
        assert w.fake.gateway.live_shards() == {0, 1}

        # Restarted, the second process's shards come back, aliases and all.
        async with w.process(SECOND, tmp_path) as again:
            for shard in SECOND:
                for term in TERMS:
                    await w.card(shard, term)
            _, card = await define(w.fake, w.alice, "zyxw blorptron", w.channels[3])
            assert card["embeds"], card
            w.cards[w.guilds[3].id] += 1
            assert await again.stop() == 0, again.output
        assert await first.stop() == 0, first.output

        # Counts add up: exact for the first process, the second may have lost the burst.
        assert await w.stored(FIRST) == w.made(FIRST)
        stored_second = await w.stored(SECOND)
        assert w.made(SECOND) - burst <= stored_second <= w.made(SECOND)

        # The IDENTIFY rate limit held across processes, restart included.
        identifies = w.fake.sharding.identifies
        assert {r.shard_id for r in identifies} == {0, 1, 2, 3}
        assert all(r.outcome == "ready" for r in identifies), identifies
        assert len(identifies) == 6  # four at start, two on the restart
        assert w.fake.sharding.too_close() == []
        assert "glossary:glossary@" not in first.output + again.output  # no password logged
