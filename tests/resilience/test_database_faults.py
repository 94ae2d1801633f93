"""A database that is read-only, full, locked by another process, or slow: /define keeps
answering, counts wait in memory and are written once the database is back (the failure is
logged once), moderators are told clearly and ephemerally, and nothing already stored is damaged.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.moderators import NO_DATABASE, STORAGE_DOWN
from bot.storage import ALIAS_CAP, StorageUnavailable, Store
from tests.discord_app.helpers import define, embed_of, is_ephemeral
from tests.fake_discord import InteractionHandle
from tests.storage.full_disk import FullDisk

from .botproc import BotProcess
from .conftest import Scene, StartBot, without_permission_override
from .helpers import (
    DEFERRED,
    hung_database,
    integrity,
    locked_by_another_process,
    moderator_says,
    query,
    stored_aliases,
    stored_lookups,
)

KV_STASH = {"alias": "kv stash", "term": "kv-cache"}
MOE_STASH = {"alias": "moe stash", "term": "mixture-of-experts"}


# Not a measurement: how long a test waits for an answer that must come, before failing.
HANG_GUARD = 30.0


async def answers_with_cards(scene: Scene, *terms: str) -> None:
    for term in terms:  # each in Discord's 3 s: the fake refuses a late answer
        _, message = await define(scene.fake, scene.alice, term, scene.channel)
        assert embed_of(message)["title"], message
    await scene.fake.settle()  # a card is counted once its send returned: let the bot take it in


async def lookups_shown(scene: Scene) -> str:
    _, stats = await moderator_says(scene, "stats", {"period": "all"})
    return str(embed_of(stats)["description"])


def flush_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if "could not write lookup counts" in r.getMessage()
    ]


async def test_locked_by_another_process(
    scene: Scene, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    db = scene.db_path
    # The bot waits busy_timeout (5 s by default) for a lock; shortened here to keep the test
    # short. test_a_database_that_hangs shows that no wait can make a reply late.
    store = await Store.open(db, busy_timeout=0.5)
    async with start_bot(store):
        _, added = await moderator_says(scene, "alias add", KV_STASH)
        assert added["content"].startswith("Added")
        await answers_with_cards(scene, "kv cache", "kv stash")
        assert await store.flush()
        assert stored_lookups(db) == 2

        async with locked_by_another_process(db):
            await answers_with_cards(scene, "kv cache", "kv stash", "rag")
            autocomplete = await scene.fake.autocomplete(
                scene.alice, "define", {"term": "kv st"}, focused="term", channel=scene.channel
            )
            assert "kv-cache" in [c["value"] for c in await autocomplete.choices()]
            _, refused = await moderator_says(scene, "alias add", MOE_STASH)
            assert refused["content"] == STORAGE_DOWN
            _, refused = await moderator_says(scene, "alias remove", {"alias": "kv stash"})
            assert refused["content"] == STORAGE_DOWN
            assert not await store.flush()  # as the background flusher finds it
            assert await lookups_shown(scene) == "**5** lookups"  # counted, in memory
            assert stored_lookups(db) == 2

        assert await store.flush()
    assert stored_lookups(db) == 5
    assert stored_aliases(db) == [(scene.guild.id, "kv stash", "kv-cache")]
    assert integrity(db) == "ok"
    [warning] = flush_warnings(caplog)  # once per failure streak, not once a second
    assert "locked by another process" in warning
    assert "retried" in warning
    assert any("lookup counts written again" in r.getMessage() for r in caplog.records)


async def fill(store: Store, scope: int) -> int:
    """Add aliases until the database is full; the number added."""
    for n in range(ALIAS_CAP):
        try:
            await store.add_alias(scope, f"filler {n:04d}", f"filler {n:04d}", "kv-cache", 1)
        except StorageUnavailable as exc:
            if "full" not in str(exc):
                raise
            return n
    raise AssertionError("the database never filled up")


async def test_a_full_database(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    db = scene.db_path
    async with start_bot(store):
        await moderator_says(scene, "alias add", KV_STASH)
        await answers_with_cards(scene, "kv cache")
        assert await store.flush()

        # A full disk (`FullDisk`), and the server's aliases and other servers' misses fill what
        # room is left.
        disk = await FullDisk.of(store)
        await disk.fill()
        fillers = await fill(store, scene.guild.id)
        for i in range(300):
            store.record_miss(scene.other_guild.id, f"{i:03d} {'x' * 190}")

        await answers_with_cards(scene, "kv cache", "kv stash", "lora")
        # The next alias in line needs the room the last one did not find.
        next_alias = {"alias": f"filler {fillers:04d}", "term": "kv-cache"}
        _, refused = await moderator_says(scene, "alias add", next_alias)
        assert refused["content"] == STORAGE_DOWN
        assert not await store.flush()
        assert await lookups_shown(scene) == "**4** lookups"
        assert stored_lookups(db) == 1

        await disk.free()  # room again
        assert await store.flush()
        _, added = await moderator_says(scene, "alias add", next_alias)
        assert added["content"].startswith("Added")
    assert stored_lookups(db) == 4
    assert query(db, "SELECT count(*), sum(count) FROM misses") == [(300, 300)]
    aliases = stored_aliases(db)
    assert (scene.guild.id, "kv stash", "kv-cache") in aliases
    assert len(aliases) == 1 + fillers + 1
    assert integrity(db) == "ok"
    [warning] = flush_warnings(caplog)
    assert "full" in warning


async def test_a_read_only_database_file(scene: Scene, tmp_path: Path) -> None:
    prefix = without_permission_override()  # root ignores file modes; this process must not
    db = scene.db_path
    store = await Store.open(db, flush_interval=None)
    await store.add_alias(scene.guild.id, "kv stash", "kv stash", "kv-cache", scene.moderator.id)
    for _ in range(3):
        store.record_lookup(scene.guild.id, "kv-cache")
    await store.close()
    db.chmod(0o444)
    before = db.read_bytes()
    try:
        async with BotProcess(scene.fake, db, cwd=tmp_path, prefix=prefix) as bot:
            await answers_with_cards(scene, "kv cache", "kv stash")
            _, refused = await moderator_says(scene, "alias add", MOE_STASH)
            assert refused["content"] == STORAGE_DOWN
            await bot.wait_for_output(r"could not write lookup counts .*read-only.*retried")
            assert await lookups_shown(scene) == "**5** lookups"
            assert db.read_bytes() == before  # not a byte written

            db.chmod(0o644)  # the operator fixes the volume; the bot needs no restart
            await bot.wait_for_output(r"lookup counts written again")
            _, added = await moderator_says(scene, "alias add", MOE_STASH)
            assert added["content"].startswith("Added")
            assert await bot.stop() == 0
    finally:
        db.chmod(0o644)
    assert stored_lookups(db) == 5
    assert stored_aliases(db) == [
        (scene.guild.id, "kv stash", "kv-cache"),
        (scene.guild.id, "moe stash", "mixture-of-experts"),
    ]
    assert integrity(db) == "ok"
    assert len([line for line in bot.lines if "could not write lookup counts" in line]) == 1


async def deferred_then(handle: InteractionHandle) -> None:
    """The interaction was acknowledged with "thinking…" (while the database hangs)."""
    async with asyncio.timeout(HANG_GUARD):
        response = await handle.response()
    assert response["type"] == DEFERRED, response


async def test_moderators_reads_from_a_database_that_fails_say_so(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """/stats, /term log and /alias list read the database: when it fails, each says so in one
    private line after "thinking…", never a traceback."""
    await store.close()  # every read fails from now on, as it does while the bot stops
    for command in ("stats", "term log", "alias list"):
        _, answer = await moderator_says(scene, command, {})
        assert answer["content"] == NO_DATABASE, command


async def test_a_database_that_hangs(scene: Scene, bot: GlossaryBot, store: Store) -> None:
    """However long the database takes, every interaction is acknowledged without it: answered
    without the database where it can be, deferred where it must wait. Every answer below comes
    while the database still hangs (it answers only at `gate.set()`), so none waited for it;
    how fast they come is not this test's business (Discord's 3 s is the fake's to enforce, and
    a loaded machine may stretch it), except that a read the bot gives up on must give up in
    time."""
    fake = scene.fake
    assert bot.state.read_timeout < 3.0 - 1.0  # a second to spare for the answer itself
    fake.ack_deadline = HANG_GUARD  # structure, not speed (see above)
    await moderator_says(scene, "alias add", KV_STASH)
    await answers_with_cards(scene, "kv cache")
    store.record_miss(scene.guild.id, "moe stash")

    with hung_database(store) as gate:
        # /define with the server's aliases in memory answers at once (without a lookup count).
        _, card = await define(fake, scene.alice, "kv stash", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"

        # Typing: suggestions come in time, from memory.
        for text in ("", "kv"):
            typing = await fake.autocomplete(
                scene.alice, "define", {"term": text}, focused="term", channel=scene.channel
            )
            async with asyncio.timeout(HANG_GUARD):
                await typing.choices()
        # Nothing from the database in time: /alias add suggests nothing, /alias remove what
        # the bot holds in memory (left51: the alias still answers /define, so it is offered).
        held = [{"name": "kv stash → KV Cache", "value": "kv stash"}]
        for command, option, offered in (
            ("alias add", "alias", []),
            ("alias remove", "alias", held),
        ):
            typing = await fake.autocomplete(
                scene.moderator, command, {option: ""}, focused=option, channel=scene.channel
            )
            async with asyncio.timeout(HANG_GUARD):
                assert await typing.choices() == offered

        # /define when the aliases must be read first: "thinking…", then the card without them.
        # Before /stats below, which counts what was looked up when it was asked: a lookup
        # made while its read waits on the database may or may not be in its answer.
        bot.state.servers.forget(scene.guild.id)
        slow = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
        await deferred_then(slow)
        assert embed_of(await slow.final_message())["title"].endswith("(RAG)")

        # Moderators: "thinking…" at once, the answer when the database has answered.
        handles = [
            await fake.slash(scene.moderator, command, options, channel=scene.channel)
            for command, options in (
                ("alias add", MOE_STASH),
                ("alias remove", {"alias": "no such alias"}),
                # one term's: the whole list could be read before or after the add beside it
                ("alias list", {"term": "kv-cache"}),
                ("stats", {}),
            )
        ]
        for handle in handles:
            await deferred_then(handle)

        gate.set()  # the database answers at last
        add, remove, listing, stats = [await h.final_message() for h in handles]
    for message in (add, remove, listing, stats):
        assert is_ephemeral(message)
    assert (
        add["content"]
        == "Added: “moe stash” now opens **Mixture of Experts (MoE)** in this server."
    )
    assert remove["content"] == "This server has no alias “no such alias”."
    assert embed_of(listing)["title"] == "1 alias of KV Cache"
    assert "“kv stash” → KV Cache" in embed_of(listing)["description"]
    assert embed_of(stats)["description"] == "**3** lookups"
    await store.flush()
    assert await store.lookup_count(scene.guild.id, "kv-cache") == 2
