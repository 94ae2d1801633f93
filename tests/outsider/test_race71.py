"""Several processes, one bot, raced (task race71, tests/outsider/PLAN.md "race71").

One server lives on one shard, so one bot process serves it; what writes to it from another
process is the command line (`glossary-bot aliases import`, `terms import`) or, in a rolling
restart, the bot's other process. Here the real discord.py bot runs against the fake Discord on a
real PostgreSQL schema, and that other process is a second `Store` on the same schema (its own
connections), writing at the worst moment (`meanwhile`): after the bot checked a moderator's
change against the server as it read it, before its write.

Needs a real PostgreSQL: TEST_DATABASE_URL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.glossary.server_terms import ServerTerm
from bot.storage import ALIAS_CAP, AddAliasResult, AddAliasStatus, AliasImport, Store
from bot.term_storage import TermChange, change_terms
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, define_until_card, embed_of
from tests.discord_app.term_commands import TERM, open_add, submit
from tests.polling import eventually
from tests.storage.conftest import fresh_schema

from .conftest import Scene

pytestmark = pytest.mark.postgres

OTHER = 4242  # the other process's actor
STUCK = 30.0  # seconds: bounds a hang only


@pytest.fixture
async def url() -> AsyncIterator[str]:
    async with fresh_schema(TEST_DATABASE_URL) as schema:
        yield schema


def meanwhile(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    other_write: Callable[[], Awaitable[object]],
    write: str = "add_alias",
) -> None:
    """The other process writes at the worst moment: after this process has checked the change
    against the server as it read it (`servers.current`, which reads a changed server again),
    just before its `write`, whose own check inside the database's write is all that is left."""
    real = getattr(store, write)

    async def raced(*args: Any, **kwargs: Any) -> Any:
        await other_write()
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, write, raced)


async def add(scene: Scene, alias: str, term: str) -> str:
    handle = await scene.fake.slash(
        scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
    )
    return str((await handle.final_message())["content"])


async def title_of(scene: Scene, query: str) -> str | None:
    _, message = await define(scene.fake, scene.alice, query, scene.channel)
    return str(embed_of(message)["title"]) if message["embeds"] else None


async def is_none(title: Awaitable[str | None]) -> bool:
    return await title is None


@pytest.mark.parametrize("look_alike", ["zorb-lax", "ZORB LAX", "zorblaxes", "zоrblax"])
async def test_a_look_alike_alias_added_in_two_processes_at_once_is_taken_once(
    scene: Scene,
    start_bot: StartBot,
    url: str,
    monkeypatch: pytest.MonkeyPatch,
    look_alike: str,
) -> None:
    """This process's moderator adds, for RAG, a spelling search reads as "zorblax" (or a
    Cyrillic look-alike of it); the other process adds "zorblax" for KV Cache after this one
    checked it free and before it writes. The check inside the write refuses it, naming the
    alias; then this process opens KV Cache too, and the audit log holds the one write made."""
    store, other = await Store.open(url), await Store.open(url)
    zorblax = AliasImport(scene.guild.id, "zorblax", "zorblax", "kv-cache")
    meanwhile(store, monkeypatch, lambda: other.import_aliases([zorblax], OTHER))
    try:
        async with start_bot(store):
            said = await add(scene, look_alike, "rag")
            assert not said.startswith("Added"), said
            assert "zorblax" in said, said
            card = await define_until_card(scene.fake, scene.alice, "zorblax", scene.channel)
            assert embed_of(card)["title"] == "KV Cache", card
            assert [(r.key, r.entry_id) for r in await other.list_aliases(scene.guild.id)] == [
                ("zorblax", "kv-cache")
            ]
            log = await other.audit_log(scene.guild.id)
            assert [(r.alias_key, r.actor_id) for r in log] == [("zorblax", OTHER)], log
    finally:
        await other.close()


async def test_the_alias_cap_reached_from_two_processes_at_once_holds(
    scene: Scene, start_bot: StartBot, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the cap less one, this process checks one more alias (a place left), and the other
    process takes the last place before it writes: refused at the cap (not 1,001 aliases),
    nothing logged for it."""
    store, other = await Store.open(url), await Store.open(url)
    guild = scene.guild.id
    taken: list[AddAliasResult] = []

    async def take_the_last() -> None:
        last = AliasImport(guild, "zorblax", "zorblax", "kv-cache")
        taken.extend(await other.import_aliases([last], OTHER))

    meanwhile(store, monkeypatch, take_the_last)
    try:
        filler = [AliasImport(guild, f"qx{n:04d}", f"qx{n:04d}", "kv-cache") for n in range(999)]
        await other.import_aliases(filler[: ALIAS_CAP - 1], OTHER)
        async with start_bot(store):
            assert await title_of(scene, "qx0000") == "KV Cache"
            said = await add(scene, "flumbrix", "rag")
            assert [t.status for t in taken] == [AddAliasStatus.ADDED], taken
            assert not said.startswith("Added"), said
            assert "1,000" in said or "1000" in said, said
            assert len(await other.list_aliases(guild)) == ALIAS_CAP
            assert await title_of(scene, "flumbrix") != "Retrieval-Augmented Generation (RAG)"
            log = await other.audit_log(guild, limit=5)
            assert "flumbrix" not in [r.alias_key for r in log], log
    finally:
        await other.close()


async def test_an_alias_added_for_a_term_the_other_process_just_removed_is_refused(
    scene: Scene, start_bot: StartBot, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator here adds an alias for the server's own term Zorblax; the other process
    removes the term (an import without it) after this one checked it and before it writes.
    Refused inside the write: no alias left opening nothing, none logged."""
    store, other = await Store.open(url), await Store.open(url)
    guild = scene.guild.id
    term = ServerTerm(
        id="zorblax", title="Zorblax", definition="Our nightly rerank.", category="Fundamentals"
    )
    try:
        await change_terms(other, guild, lambda *_: (TermChange(put=(term,)), None), OTHER)
        removal = TermChange(remove=("zorblax",))
        meanwhile(
            store, monkeypatch, lambda: change_terms(other, guild, lambda *_: (removal, None), 1)
        )
        async with start_bot(store):
            assert await title_of(scene, "zorblax") == "Zorblax"
            said = await add(scene, "nightly rerank", "zorblax")
            assert said.startswith("“Zorblax” was removed"), said
            assert await other.list_aliases(guild) == []
            assert await other.audit_log(guild) == []
            # The bot's memory catches up: the term opens nothing.
            await eventually(lambda: is_none(title_of(scene, "zorblax")), "Zorblax gone", STUCK)
    finally:
        await other.close()


async def test_the_term_cap_reached_from_two_processes_at_once_holds(
    scene: Scene, start_bot: StartBot, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cap of 2 terms, 1 stored. A moderator here opens `/term add` (a place left) and
    saves; the other process takes the last place just before this one's write: refused at the
    cap, naming it, what was typed kept (Edit again), 2 terms stored, one add in the log."""
    store, other = await Store.open(url), await Store.open(url)
    guild = scene.guild.id

    def one(name: str) -> ServerTerm:
        return ServerTerm(id=name.lower(), title=name, definition="Ours.", category="Fundamentals")

    try:
        await change_terms(other, guild, lambda *_: (TermChange(put=(one("Qorb"),)), None), OTHER)
        taking = TermChange(put=(one("Flumbrix"),))
        async with start_bot(store, term_caps=(2, 1 << 20)):
            opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
            meanwhile(
                store,
                monkeypatch,
                lambda: change_terms(other, guild, lambda *_: (taking, None), OTHER),
                "change_terms",
            )
            answer = await submit(scene, scene.moderator, opened, TERM)
            assert not answer["content"].startswith("Added"), answer
            assert "a server can have at most 2 terms" in answer["content"], answer
            assert "Edit again" in answer["content"], answer
            assert sorted(t.id for t in await other.terms(guild)) == ["flumbrix", "qorb"]
            log = await other.term_audit_log(guild)
            assert sorted(str(r.term_id) for r in log) == ["flumbrix", "qorb"], log
    finally:
        await other.close()


async def test_an_alias_added_as_the_other_process_writes_a_term_of_that_name_is_refused(
    scene: Scene, start_bot: StartBot, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator here adds "zorblax" for RAG; the other process (`terms import`) writes the
    server's own term Zorblax after this one checked the alias and before it writes. The alias
    would take the term's own name for RAG, which `/alias add` refuses when it sees the term;
    the check inside the write looked at the aliases alone, so it was added (failed before).
    Now the write sees the server's terms moved: nothing added, "try again"; and again, the
    alias is refused naming the term."""
    store, other = await Store.open(url), await Store.open(url)
    guild = scene.guild.id
    term = ServerTerm(
        id="zorblax", title="Zorblax", definition="Our nightly rerank.", category="Fundamentals"
    )
    meanwhile(
        store,
        monkeypatch,
        lambda: change_terms(other, guild, lambda *_: (TermChange(put=(term,)), None), OTHER),
    )
    try:
        async with start_bot(store):
            said = await add(scene, "zorblax", "rag")
            assert said.startswith("This server's terms changed a moment ago"), said
            assert said.endswith("nothing was added. Try again."), said
            monkeypatch.undo()  # the other process is done
            again = await add(scene, "zorblax", "rag")
            assert not again.startswith("Added"), again
            assert "Zorblax" in again, again
            assert await other.list_aliases(guild) == []
            assert await other.audit_log(guild) == []
            card = await define_until_card(scene.fake, scene.alice, "zorblax", scene.channel)
            assert embed_of(card)["title"] == "Zorblax", card
    finally:
        await other.close()


async def test_a_term_written_as_the_other_process_adds_an_alias_of_its_name_is_refused(
    scene: Scene, start_bot: StartBot, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other way round (README: checked inside the term's write): a moderator here saves
    the term Zorblax; the other process adds the alias "zorblax" for RAG just before. Refused,
    naming the alias; nothing saved."""
    store, other = await Store.open(url), await Store.open(url)
    guild = scene.guild.id
    zorblax = AliasImport(guild, "zorblax", "zorblax", "rag")
    try:
        async with start_bot(store):
            opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
            meanwhile(
                store, monkeypatch, lambda: other.import_aliases([zorblax], OTHER), "change_terms"
            )
            answer = await submit(scene, scene.moderator, opened, TERM)
            assert answer["content"].startswith("Nothing was saved"), answer
            assert "zorblax" in answer["content"], answer
            assert await other.terms(guild) == []
    finally:
        await other.close()


async def test_one_suggestion_decided_in_two_processes_at_once_is_decided_once(
    url: str,
) -> None:
    """Accept in one process, reject in the other, released together: one decision, one log
    line; the other is told None (the bot then says how it was decided)."""
    one, two = await Store.open(url), await Store.open(url)
    try:
        await one.add_suggestion(7, 11, "Zorblax", "Our nightly rerank.")
        [waiting] = await one.open_suggestions(7)
        go = asyncio.Event()

        async def decide(store: Store, accepted: bool) -> object:
            await go.wait()
            return await store.decide_suggestion(
                7, waiting.id, accepted=accepted, actor_id=OTHER, term_id="zorblax"
            )

        tasks = [asyncio.create_task(decide(s, a)) for s, a in ((one, True), (two, False))]
        go.set()
        results = await asyncio.wait_for(asyncio.gather(*tasks), STUCK)
        assert sum(r is not None for r in results) == 1, results
        log = await two.term_audit_log(7)
        assert len(log) == 1, log
        assert await one.open_suggestions(7) == []
    finally:
        await one.close()
        await two.close()
