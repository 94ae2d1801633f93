"""One alias cache, keyed on the store's alias version (issues 10 and 11): requests never read
the database for aliases; a change made through another connection is seen at the next check."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.storage import AliasImport, Store

from .conftest import Scene, StartBot
from .helpers import VersionChecks, define, define_until_card, embed_of


def count_calls(monkeypatch: pytest.MonkeyPatch, store: Store, *names: str) -> Counter[str]:
    calls: Counter[str] = Counter()
    for name in names:
        real = getattr(store, name)

        async def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] += 1
            return await _real(*args)

        monkeypatch.setattr(store, name, counted)
    return calls


async def test_requests_do_not_read_aliases(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = scene.fake
    await store.add_alias(scene.guild.id, "zorb lax", "zorb lax", "kv-cache", actor_id=1)
    async with start_bot(store, alias_check_interval=3600.0):
        calls = count_calls(monkeypatch, store, "aliases", "alias_version")
        for _ in range(5):
            _, card = await define(fake, scene.alice, "zorb lax", scene.channel)
            assert embed_of(card)["title"] == "KV Cache"
            typing = await fake.autocomplete(
                scene.alice, "define", {"term": "zorb"}, focused="term", channel=scene.channel
            )
            assert [c["value"] for c in await typing.choices()][:1] == ["kv-cache"]
            await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} zorblax")
            reply = await fake.wait_for_channel_message(scene.channel)
            assert embed_of(reply)["title"] == "KV Cache"
        assert calls == Counter()


async def test_another_connections_change_is_seen_at_the_next_check(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = scene.fake
    async with start_bot(store, alias_check_interval=0.05):
        checks = VersionChecks(store, monkeypatch)
        _, before = await define(fake, scene.alice, "zorb lax", scene.channel)
        assert before["content"].startswith("No entry for “zorb lax”")
        other = await Store.open(scene.db_path, flush_interval=None)
        try:
            await other.import_aliases([AliasImport(scene.guild.id, "zorb lax", "zorb lax", "rag")])
        finally:
            await other.close()
        await checks.after_change()
        card = await define_until_card(fake, scene.alice, "zorb lax", scene.channel)
        assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)"


async def test_a_glossary_reload_recompiles_a_servers_aliases_for_the_new_index(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    await store.add_alias(scene.guild.id, "zorb lax", "zorb lax", "kv-cache", actor_id=1)
    async with start_bot(store) as bot:
        before = await bot.state.servers.get(scene.guild.id)
        assert bot.state.reload().startswith("reloaded")
        after = await bot.state.servers.get(scene.guild.id)
        assert after is not before
        assert after.positions is bot.state.index.positions
        _, card = await define(scene.fake, scene.alice, "zorb lax", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"
