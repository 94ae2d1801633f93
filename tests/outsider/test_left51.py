"""Leftovers of shards49: tests/outsider/PLAN.md, "Leftovers (left51)".

The claims' test needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import logging

import pytest

from bot.storage import Store
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of
from tests.polling import eventually
from tests.resilience.helpers import hung_database
from tests.resilience.test_shard_claims import end_sessions
from tests.storage.conftest import fresh_schema

from .conftest import Scene


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("shard_ids", "lost", "again"),
    [
        (None, "another process for this bot on this database is not refused", "refused again"),
        (
            [0, 1],
            "a process with overlapping SHARD_IDS is not refused",
            "SHARD_IDS is refused again",
        ),
    ],
)
async def test_lost_claims_are_said_in_words_that_fit_the_process(
    caplog: pytest.LogCaptureFixture, shard_ids: list[int] | None, lost: str, again: str
) -> None:
    """shards49's leftover: a single process (no SHARD_IDS) on PostgreSQL logged, when
    PostgreSQL restarted, "a process with overlapping SHARD_IDS is not refused": it has no
    SHARD_IDS; what it claims is the whole bot, so any second process is what goes unrefused.
    A sharded process keeps its words."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        try:
            async with store.claim_shards(shard_ids, holder="left51 claims", wait=0):
                assert await end_sessions(url, "left51 claims") == 1
                await eventually(lambda: "claimed again" in caplog.text, "the loss said")
                await eventually(lambda: "shard claims taken again" in caplog.text, "retaken")
        finally:
            await store.close()
    said = [r.getMessage() for r in caplog.records if "claim" in r.getMessage()]
    assert any(lost in line for line in said), said
    assert any(again in line for line in said), said
    if shard_ids is None:
        assert not any("SHARD_IDS" in line for line in said), said


async def test_alias_remove_offers_the_aliases_held_while_the_database_is_away(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """shards49's leftover: while the database did not answer, `/alias remove`'s box offered
    nothing, though the alias still opened its card in /define: to a moderator, the alias
    looked gone. Now the box offers the aliases the bot holds (as /define answers them); picking
    one is then told what typing it is told."""
    fake = scene.fake
    async with start_bot(store, read_timeout=0.05):
        added = await fake.slash(
            scene.moderator,
            "alias add",
            {"alias": "kv stash", "term": "kv-cache"},
            channel=scene.channel,
        )
        assert (await added.final_message())["content"].startswith("Added"), added
        with hung_database(store):
            _, card = await define(fake, scene.alice, "kv stash", scene.channel)
            assert embed_of(card)["title"] == "KV Cache", card
            picker = await fake.autocomplete(
                scene.moderator,
                "alias remove",
                {"alias": "kv"},
                focused="alias",
                channel=scene.channel,
            )
            choices = await picker.choices()
            assert [c["value"] for c in choices] == ["kv stash"], choices
            assert choices[0]["name"] == "kv stash → KV Cache", choices
        assert [r.key for r in await store.list_aliases(scene.guild.id)] == ["kv stash"]
