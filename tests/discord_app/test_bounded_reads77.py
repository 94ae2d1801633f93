"""mend77: what product77's WRITE_WAIT left (tests/outsider/PLAN.md, mend77).

A moderator's reads around a change were not bounded: `/alias list` (and every list read by
`read_or_say`), `/stats`, `/term import`'s cap read of a file past the caps, and the next
suggestion a Reject shows each waited a read's minute (COMMAND_TIMEOUT) while PostgreSQL
hung. Now each is told within WRITE_WAIT. A decision cut off after its COMMIT was said not
made; a server's glossary read a change began (and /define joined) was cut at the change's
bound. The PostgreSQL forwarder and the SQLite lock are product77's (test_write_wait77).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.moderators import NOT_IN_TIME, READ_NOT_IN_TIME, in_doubt
from bot.storage import Store
from bot.storage.errors import not_in_time
from bot.term_storage import TermChange, change_terms
from tests.conftest import TEST_DATABASE_URL
from tests.resilience.helpers import locked_by_another_process
from tests.storage.conftest import fresh_schema

from .conftest import Scene, StartBot
from .helpers import buttons, is_ephemeral
from .term_commands import IDEA, made_up
from .test_write_wait77 import Forwarder, carded, through_forwarder

# Past the bound (1 s) by far, short of the read's 60 s (COMMAND_TIMEOUT) the reads waited
# before: a test that reaches it failed.
OUTER = 30
needs_postgres = pytest.mark.skipif(not TEST_DATABASE_URL, reason="TEST_DATABASE_URL is not set")


@contextlib.asynccontextmanager
async def hanging(
    scene: Scene, start_bot: StartBot, **options: object
) -> AsyncIterator[tuple[GlossaryBot, Store, Forwarder]]:
    """A bot on a PostgreSQL of its own through product77's forwarder (not frozen yet), its
    WRITE_WAIT 1 s."""
    async with (
        fresh_schema(TEST_DATABASE_URL, "m77") as direct,
        through_forwarder(direct) as (url, forwarder),
    ):
        store = await Store.open(url)
        store.write_wait = 1.0
        async with start_bot(store, **options) as bot:
            yield bot, store, forwarder


async def said(scene: Scene, command: str, options: dict[str, object]) -> str:
    handle = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
    async with asyncio.timeout(OUTER):
        message = await handle.final_message()
    assert is_ephemeral(message)
    return str(message["content"])


async def suggested(scene: Scene, name: str) -> None:
    fake = scene.fake
    handle = await fake.slash(scene.alice, "suggest", {"term": name}, channel=scene.channel)
    await handle.response()
    sent = await fake.submit_modal(scene.alice, handle, {"definition": IDEA})
    assert (await sent.final_message())["content"].startswith("Thanks!")


@needs_postgres
async def test_moderator_reads_while_postgresql_hangs_are_told_within_the_bound(
    scene: Scene, start_bot: StartBot
) -> None:
    """`/alias list`, `/term review`, `/stats` and `/term import`'s cap read: each a read's
    minute before (the test's 30 s reached), now told within the bound; /define answers."""
    async with hanging(scene, start_bot) as (_, _, forwarder):
        forwarder.freeze()
        assert await said(scene, "alias list", {}) == READ_NOT_IN_TIME
        assert await said(scene, "term review", {}) == READ_NOT_IN_TIME
        assert await said(scene, "stats", {}) == READ_NOT_IN_TIME
        big = scene.fake.add_attachment("big.toml", b"#" * (6 << 20))  # past the caps' 4.98 MiB
        assert await said(scene, "term import", {"file": big}) == NOT_IN_TIME
        assert big.downloads == 0
        assert await carded(scene, "rag") == "Retrieval-Augmented Generation (RAG)"
        forwarder.thaw()
        assert await said(scene, "alias list", {}) not in (READ_NOT_IN_TIME, "")


@needs_postgres
async def test_a_reject_while_postgresql_hangs_is_answered_within_the_bound(
    scene: Scene, start_bot: StartBot
) -> None:
    """Reject: its decision was cut at the bound, and then the next suggestion's read waited a
    read's minute more. Now the answer comes within the bound, the suggestion still open."""
    async with hanging(scene, start_bot) as (_, store, forwarder):
        await suggested(scene, "blorp")
        review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        forwarder.freeze()
        rejected = await scene.fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        async with asyncio.timeout(OUTER):
            answer = str((await rejected.final_message())["content"])
        assert "could not be marked decided" in answer, answer
        forwarder.thaw()
        [waiting] = await store.open_suggestions(scene.guild.id)
        assert waiting.title == "blorp"


async def test_a_decision_cut_after_its_commit_says_it_may_have_been_made(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its COMMIT sent and not answered (`NotInTime`, written None): the database may have
    made it. It said "could not be marked decided; it stays in the queue"; now it says what
    every change cut so says (`in_doubt`)."""
    async with start_bot(store):
        await suggested(scene, "blorp")
        review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()

        async def cut_after_commit(*_: object, **__: object) -> None:
            raise not_in_time(str(scene.db_path), 1.0, committing=True)

        monkeypatch.setattr(store, "decide_suggestion", cut_after_commit)
        rejected = await scene.fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        answer = str((await rejected.final_message())["content"])
        doubt = in_doubt("the suggestion's decision", "`/term review`, `/term log`")
        assert answer.startswith(doubt), answer
        assert "stays in the queue" not in answer, answer


@pytest.mark.busy_timeout(600)  # SQLite's own wait for the lock: longer than any test
async def test_a_reject_while_sqlite_is_locked_is_answered_within_the_bound(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """The same Reject while another process holds the SQLite file's write lock: told within
    the bound (its decision's write, the next suggestion's read after it), nothing decided."""
    store.write_wait = 1.0
    async with start_bot(store):
        await suggested(scene, "blorp")
        review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        async with locked_by_another_process(scene.db_path):
            rejected = await scene.fake.click(scene.moderator, shown, buttons(shown)["Reject"])
            async with asyncio.timeout(OUTER):
                answer = str((await rejected.final_message())["content"])
            assert "could not be marked decided" in answer, answer
            assert await said(scene, "alias list", {}) != READ_NOT_IN_TIME  # reads go on
        [waiting] = await store.open_suggestions(scene.guild.id)
        assert waiting.title == "blorp"


@needs_postgres
async def test_a_glossary_read_a_change_began_goes_on_for_define_past_the_change_s_bound(
    scene: Scene, start_bot: StartBot
) -> None:
    """A server's glossary read is shared: a /define that comes while it runs waits for the
    same read. Begun inside a moderator's change it took the change's bound, and cut there, the
    /define answered without the server's terms (a cold server: none read yet). Now the read
    is bounded by no change: the /define gets the server's term."""
    async with hanging(scene, start_bot, read_timeout=OUTER) as (bot, store, _):
        term = made_up("zorblat")
        await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=(term,)), None), 1)
        servers = bot.state.servers
        servers.forget(scene.guild.id)
        store.write_wait = 0.0  # the change's bound: passed as the read begins
        with store.answering():
            change = asyncio.ensure_future(servers.local(scene.guild.id))
        member = asyncio.ensure_future(servers.local(scene.guild.id))  # joins the same read
        async with asyncio.timeout(OUTER):
            read = await member
            await change
        assert [t.id for t in read.terms] == ["zorblat"], read.terms
