"""Review of the last merges (tests/outsider/PLAN.md, "Review of the last merges (review38)"):
left37's mentions and `/stats` digest, shards37's SHARD_COUNT lock.

Through the real bot (discord.py) against the fake Discord, on real SQLite files; the shard
claims on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import signal
import sys

import asyncpg
import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import MENTION_HELP
from bot.discord_app.cogs.terms import UNFINISHED_AT_STOP
from bot.storage import ShardsTaken, StorageError, Store
from bot.storage.postgres.claims import _COUNT_KEY
from bot.term_storage import read_terms
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.helpers import selects
from tests.discord_app.term_commands import TERM, open_add
from tests.discord_app.test_member_searches import STUCK
from tests.polling import eventually
from tests.resilience.botproc import ROOT
from tests.resilience.conftest import StartBot
from tests.storage.conftest import fresh_schema

from .conftest import Scene
from .stopping import stop_with_a_write_held, write_begun

RAG = "Retrieval-Augmented Generation (RAG)"


async def rag_for_each(scene: Scene, *said: str) -> None:
    """Alice says each of `said` in the channel, and each gets RAG's card."""
    for text in said:
        await scene.fake.user_message(scene.alice, scene.channel, text)
        answer = await scene.fake.wait_for_channel_message(scene.channel)
        assert answer["embeds"], (text, answer["content"])
        assert answer["embeds"][0]["title"] == RAG, (text, answer)


async def help_for_each(scene: Scene, *said: str) -> None:
    """Alice says each of `said` in the channel, and each gets the mention's help line."""
    for text in said:
        await scene.fake.user_message(scene.alice, scene.channel, text)
        answer = await scene.fake.wait_for_channel_message(scene.channel)
        assert answer["content"] == MENTION_HELP, (text, answer)


async def test_a_question_put_to_the_bot_after_another_s_mention_keeps_its_words(
    scene: Scene, bot: GlossaryBot
) -> None:
    """R1, R2: "@bob what's rag, @Glossary?" asks the bot about RAG; only the "?" came after
    the bot's mention, and left37 took what follows it as the question. The bot between two
    others, "cc @bob" first, and a message of only mentions and emoji as before."""
    fake = scene.fake
    me, bob, mod = fake.bot.mention, scene.bob.mention, scene.moderator.mention
    await rag_for_each(
        scene,
        f"{bob} what's rag, {me}?",
        f"{bob} explain rag {me} !",
        f"{mod} {me} rag for {bob}",
        f"cc {bob} {me} rag",
        f"{bob} {me} what is rag? {mod}",
    )
    await help_for_each(scene, f"{bob} {me} <:pepe:1234567890> {mod}", f"{bob} {me}")


async def test_a_long_miss_picked_among_many_with_its_first_words_is_added(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """R3: a long miss beside a long entry id is offered by its digest and the ~30 characters
    of it that fit; picked, the stored misses holding those characters were read, the top 100
    of them. Misses sharing them ("what is the difference between …") searched more often since
    the menu was sent hid it: "no longer stored", nothing added, though it was."""
    fake = scene.fake
    title = "Zorblax Frimble Quantization Scheduler Warmup Calibration"
    opened = await fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": title, "definition": "The nightly job that warms the zorblax up."}
    added = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert added["content"].startswith(f"Added **{title}"), added
    head = "what is the difference between "
    miss = f"{head}zorblax frimble quantization scheduler warmup calibration"
    store.record_miss(scene.guild.id, miss)
    shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await shown.final_message()
    [menu] = selects(message)
    [option] = menu["options"]
    assert option["value"].startswith("~"), option  # offered by its digest
    for n in range(120):  # searched since, each more often than it
        for _ in range(2):
            store.record_miss(scene.guild.id, f"{head}thing {n} and thing {n + 1}")
    picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
    answer = (await picked.final_message())["content"]
    assert answer.startswith(f"Added: “{miss}” now opens **{title}"), answer


@pytest.mark.postgres
async def test_two_counts_claimed_at_once_are_told_the_count_not_a_deadlock(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """R5: two processes with different SHARD_COUNTs starting at once each hold their count
    and then wait for the other's to go: each waits on the other, and PostgreSQL ends one of
    the waits with "deadlock detected". The other process's steps are played on a session of
    its own, as `claims` runs them (its count held, then the first one's waited for), so that
    the two are at once every time."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        other = await asyncpg.connect(url, server_settings={"application_name": "other 0"})
        try:
            schema = await other.fetchval("SELECT current_schema()")
            assert schema.startswith("test_"), schema
            await other.execute(f"SELECT pg_advisory_lock_shared({_COUNT_KEY}, 8)")
            claiming = asyncio.create_task(claimed_with(store, 4))
            await eventually(lambda: "runs SHARD_COUNT 8 (other 0" in caplog.text, "waiting")
            await other.execute("SET lock_timeout = 30000")
            try:  # the other one now waits for count 4 to go, as `claims` does
                await other.execute(f"SELECT pg_advisory_lock({_COUNT_KEY}, 4)")
            except asyncpg.DeadlockDetectedError:
                await other.close()  # it stops (refused), letting count 8 go
            outcome = await claiming
            assert outcome in ("claimed", "SHARD_COUNT 8"), outcome
        finally:
            if not other.is_closed():
                await other.close()
            await store.close()


async def claimed_with(store: Store, count: int, *, wait: float = 20) -> str:
    try:
        async with store.claim_shards([0], holder=f"count {count}", wait=wait, shard_count=count):
            return "claimed"
    except ShardsTaken as exc:
        return f"SHARD_COUNT {exc.count}"
    except StorageError as exc:
        return f"StorageError: {exc}"


HOLDER = """
import asyncio, sys
from bot.storage import Store

async def main():
    store = await Store.open(sys.argv[1], flush_interval=None)
    async with store.claim_shards([0, 1], holder="old 0,1", wait=0, shard_count=4):
        print("held", flush=True)
        await asyncio.Event().wait()

asyncio.run(main())
"""


@pytest.mark.postgres
async def test_a_count_held_by_a_process_killed_9_blocks_no_resharding() -> None:
    """R6: a process killed -9 while it holds its SHARD_COUNT: its session ends with its
    socket, so a restart with another count runs at once (no wait, nothing to expire)."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", HOLDER, url, stdout=asyncio.subprocess.PIPE, cwd=ROOT
        )
        assert proc.stdout is not None
        try:
            assert await proc.stdout.readline() == b"held\n"
            store = await Store.open(url, flush_interval=None)
            try:
                assert await claimed_with(store, 8, wait=0) == "SHARD_COUNT 4"  # while it lives
                proc.send_signal(signal.SIGKILL)
                assert await proc.wait() == -signal.SIGKILL

                async def runs() -> bool:  # once the server has seen its socket close
                    return await claimed_with(store, 8, wait=0) == "claimed"

                await eventually(runs, "count 8 claimed after the holder's kill -9")
            finally:
                await store.close()
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


@pytest.mark.postgres
@pytest.mark.parametrize("released_in_the_stop", [True, False])
async def test_a_term_form_saved_during_a_stop_on_postgresql(
    scene: Scene, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, released_in_the_stop: bool
) -> None:
    """R7: stopgap37/left36's save answered through the stop, on PostgreSQL: another session
    holds the terms table's lock (an import, say) as the form is saved and the stop begins;
    released in the stop the moderator is told "Added", held past it the save is said to be
    whole or not at all, and what is stored agrees with what was said."""
    fake = scene.fake
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        writing = write_begun(monkeypatch, store, "change_terms")
        holder = await asyncpg.connect(url)
        try:
            async with start_bot(store) as bot:
                opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
                tx = holder.transaction()
                await tx.start()
                await holder.execute("LOCK TABLE terms IN EXCLUSIVE MODE")
                try:
                    submitted = await fake.submit_modal(scene.moderator, opened, TERM)
                    await asyncio.wait_for(writing.wait(), STUCK)
                    closing = await stop_with_a_write_held(
                        bot, released_in_the_stop=released_in_the_stop
                    )
                finally:
                    await tx.commit()
                await closing
            told = [r.body["content"] for r in submitted.records if r.kind == "followup"]
            stored = await Store.open(url, flush_interval=None)
            try:
                titles = [t.title for t in await read_terms(stored, scene.guild.id)]
            finally:
                await stored.close()
        finally:
            await holder.close()
    if released_in_the_stop:
        assert [text.split(" in ")[0] for text in told] == ["Added **Zorblax**"], told
        assert titles == ["Zorblax"], titles
    else:
        assert told == [UNFINISHED_AT_STOP], told
        assert titles in ([], ["Zorblax"]), titles
