"""One alias cache, keyed on the store's alias version (issues 10 and 11): requests never read
the database for aliases; a change made through another connection is seen at the next check."""

from __future__ import annotations

import logging
import time
from collections import Counter
from typing import Any

import pytest

from bot.discord_app import alias_cache
from bot.discord_app.state import READ_TIMEOUT
from bot.glossary.server_terms import ServerTerm
from bot.storage import AliasImport, StorageError, Store
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import Scene, StartBot
from .helpers import VersionChecks, define, define_until_card, embed_of, is_ephemeral


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


async def test_a_server_whose_indexing_fails_is_answered_from_the_bundled_glossary_and_said_once(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The rows are read, then compiling them fails (after the read timeout: /define defers
    and waits for the indexing). The log said "still being indexed" at debug, and nothing of
    the failure; now one warning says it, and /define answers from the bundled glossary."""

    def failing_compile(*args: object, **kwargs: object) -> object:
        # In the indexing thread: past the whole read timeout, however fast the machine (it
        # begins after the read, the timeout's clock before it), as on a loaded machine.
        time.sleep(READ_TIMEOUT * 1.5)
        raise RuntimeError("compile broke")

    compile_local = alias_cache.compile_local
    fake, guild = scene.fake, scene.guild.id
    await store.add_alias(guild, "zorb lax", "zorb lax", "kv-cache", actor_id=1)
    caplog.set_level(logging.DEBUG, logger="bot.discord_app.alias_cache")
    # The bot's own read timeout: a read of one alias meets it with a loaded machine's margin
    # (0.05 s, missed at load 10 in a like test, would say "could not read" instead).
    async with start_bot(store, read_timeout=READ_TIMEOUT) as bot:
        monkeypatch.setattr(alias_cache, "compile_local", failing_compile)
        for term in ("kv cache", "rag"):
            bot.state.servers.forget(guild)  # as after a start: /define defers and may wait
            handle, card = await define(fake, scene.alice, term, scene.channel)
            assert (await handle.response())["type"] == 5
            assert embed_of(card)["title"] in ("KV Cache", "Retrieval-Augmented Generation (RAG)")
        said = [r for r in caplog.records if r.name == "bot.discord_app.alias_cache"]
        assert not [r for r in said if "still being indexed" in r.getMessage()]
        warnings = [r for r in said if r.levelno >= logging.WARNING]
        assert [r.getMessage() for r in warnings] == [
            f"could not index the aliases and terms of server {guild} (read from the database): "
            "answering with what was last indexed, or the bundled glossary alone, until they change"
        ]
        assert warnings[0].exc_info is not None  # a fault in the bot: its traceback

        # Kept until the server's aliases or terms change (no indexing per request): a change
        # elsewhere, or a restart, reads them again.
        _, card = await define(fake, scene.alice, "zorb lax", scene.channel)
        assert "No entry" in card["content"]
        monkeypatch.setattr(alias_cache, "compile_local", compile_local)  # mended
        await store.add_alias(guild, "zorb lax 2", "zorb lax 2", "kv-cache", actor_id=1)
        card = await define_until_card(fake, scene.alice, "zorb lax", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"  # the server's alias again
        assert any(r.getMessage().startswith("indexed the aliases") for r in caplog.records)


async def test_a_change_is_not_checked_against_the_stand_in_of_a_server_that_failed_to_index(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After its indexing failed, /define answers from a stand-in (the bundled glossary); a
    moderator's change must not be checked against it as if it were the server's glossary (a
    clash with one of its aliases or terms would pass): `current` indexes again, and fails."""

    def failing_compile(*args: object, **kwargs: object) -> object:
        raise RuntimeError("compile broke")

    guild = scene.guild.id
    await store.add_alias(guild, "zorb lax", "zorb lax", "kv-cache", actor_id=1)
    async with start_bot(store) as bot:
        monkeypatch.setattr(alias_cache, "compile_local", failing_compile)
        servers = bot.state.servers
        await servers.reload(guild)  # the versions as they are now (as `watch` keeps them)
        stand_in = await servers.local(guild, patient=True)
        assert "zorb lax" not in stand_in.aliases.source
        with pytest.raises(alias_cache.IndexingFailed):
            await servers.current(guild)


async def test_alias_add_on_a_server_that_fails_to_index_says_nothing_was_changed(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator's /alias add on such a server got the generic "Something went wrong": it
    now says, privately, that the server's glossary could not be checked and nothing was
    changed (the log has the indexing's traceback, once)."""

    def failing_compile(*args: object, **kwargs: object) -> object:
        raise RuntimeError("compile broke")

    guild = scene.guild.id
    async with start_bot(store) as bot:
        monkeypatch.setattr(alias_cache, "compile_local", failing_compile)
        await bot.state.servers.reload(guild)
        handle = await scene.fake.slash(
            scene.moderator, "alias add", {"alias": "zorb lax", "term": "kv-cache"},
            channel=scene.channel,
        )  # fmt: skip
        told = await handle.final_message()
        assert await store.aliases(guild) == {}
    assert is_ephemeral(told), told
    assert told["content"] == (
        "This server's glossary could not be checked (its terms and aliases could not be "
        "indexed), so nothing was changed. The bot's log says why."
    ), told


async def test_a_term_whose_id_the_glossary_has_is_renamed_or_told_if_the_write_fails(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """X35: a server term stored under the id of a bundled entry of another concept (the
    glossary gained the entry after the term). A read whose rename the database refuses keeps
    the term as it is and tells the operator to give the entry another id; the next read that
    can write renames it, and the id opens the entry again."""
    guild = scene.guild.id
    clash = ServerTerm(
        id="kv-cache",
        title="Zorblax Quux",
        definition="Our nightly quux job.",
        category="Fundamentals",
    )
    await change_terms(store, guild, lambda *_: (TermChange(put=(clash,)), None), 1)

    async def refused(*_: object, **__: object) -> None:
        raise StorageError("attempt to write a readonly database")

    caplog.set_level(logging.WARNING, logger=alias_cache.__name__)
    monkeypatch.setattr(store, "rename_term", refused)
    async with start_bot(store) as bot:
        await bot.state.servers.local(guild)
        assert [t.id for t in await read_terms(store, guild)] == ["kv-cache"]
        assert (
            "“Zorblax Quux” has the id 'kv-cache', which the glossary's “KV Cache” now has, and "
            "could not be renamed"
        ) in caplog.text
        monkeypatch.undo()  # the database writes again
        bot.state.servers.forget(guild)
        await bot.state.servers.local(guild)
        assert [t.id for t in await read_terms(store, guild)] == ["zorblax-quux"]
        assert (
            "had the id 'kv-cache', which the glossary's “KV Cache” now has: renamed 'zorblax-quux'"
            in caplog.text
        )
        _, card = await define(scene.fake, scene.alice, "kv-cache", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"
