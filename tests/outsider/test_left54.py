"""left54 (tests/outsider/PLAN.md, "Leftovers (left54)"): the real discord.py client on the fake
Discord, a real SQLite file; each test failing on main 0f33958d first."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot import limits
from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.moderators import SCHEMA_BEHIND
from bot.glossary.interchange import export_bytes, import_cap
from bot.glossary.server_terms import ServerTerm
from bot.search.semantic.term_vectors import TermVectors
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import embed_of
from tests.discord_app.term_commands import run_import
from tests.storage.test_left54 import BIG, LOWERED
from tests.storage.test_server_versions import _as_schema_8

from .conftest import Scene
from .test_round29 import _next_answer


async def test_term_import_takes_a_servers_own_export_past_a_lowered_text_cap(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """review60's leftover in Discord: `/term import` of the server's own export, the caps
    lowered under what it holds, was refused by the file's size before the download ("is 1.2
    MiB; an import is at most 1 MiB. Nothing was imported."). Now a file past the caps' limit
    is measured against what the server holds; one past that is still refused undownloaded."""
    fake, guild = scene.fake, scene.guild.id
    await change_terms(store, guild, lambda *_: (TermChange(put=BIG), None), 1)
    stored = await read_terms(store, guild)
    exported = export_bytes(stored)
    assert len(exported) > import_cap(*LOWERED)
    async with start_bot(store, term_caps=LOWERED):
        said = await run_import(scene, fake.add_attachment("own.toml", exported))
        assert said.startswith("Nothing changed: the file holds this server's terms"), said
        bigger = fake.add_attachment("bigger.toml", size=len(exported) + 2**20)
        said = await run_import(scene, bigger)
        assert said.startswith("“bigger.toml” is 2.17 MiB; an import is at most"), said
        assert said.endswith("Nothing was imported."), said
        assert await read_terms(store, guild) == stored


async def test_a_reply_quoting_the_bots_card_of_a_fitted_title_does_not_get_it_again(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """review61's leftover: the own-card check compared the entry's title with the card's, and
    a title with its acronym past Discord's 256 characters is fitted ("…") on the card, so a
    reply quoting that card, "what does that mean", got the same card posted again. (Such a
    term is one stored before round 28 checked the title with its acronym.) Now the check
    compares the card's title as the card fits it."""
    fake, me = scene.fake, scene.fake.bot.mention
    long = ServerTerm(
        id="zqx",
        title="Zorbic Quux Exchange " + "of the nightly batch " * 11,
        acronym="ZQX",
        definition="Our nightly zorbic job that trades quux between the shards.",
        category="Fundamentals",
    )
    assert len(long.display_title) > limits.EMBED_TITLE
    await change_terms(store, scene.guild.id, lambda *_: (TermChange(put=(long,)), None), 1)
    async with start_bot(store):
        await fake.user_message(scene.alice, scene.channel, f"{me} zqx")
        _, card = await _next_answer(scene)
        assert embed_of(card)["title"] != long.display_title, card  # fitted
        await fake.user_message(
            scene.alice,
            scene.channel,
            "> ZQX: our nightly zorbic job that trades quux\nwhat does that mean",
            reply_to=card,
        )
        asked = await fake.user_message(
            scene.alice,
            scene.channel,
            f"> it is served with vllm\n{me} what's that",
            reply_to=card,
        )
        replied_to, answer = await _next_answer(scene)
        assert replied_to == asked["id"], answer  # the first was not answered
        assert embed_of(answer)["title"] == "vLLM", answer


async def test_a_schema_put_back_under_the_bot_tells_moderators_to_restart_it(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """review59's leftover, and swap48's: a backup from before migration 9 restored in place
    under the running bot (`sqlite3 glossary.db ".restore backup.db"`), taken moments before
    so its counters did not go back. `/alias add` said "The database cannot be written right
    now ... Please try again later", and no wait mends it, nor did the operator read a line
    (review59's ERROR hung on the counters going back). Now the moderator is told the
    database was put back to an older backup and that a restart mends it, and the operator's
    ERROR line is said, once."""
    fake, guild = scene.fake, scene.guild.id
    await store.add_alias(guild, "kept", "kept", "rag", 7)
    backup = tmp_path / "backup.db"
    await store.backup(backup)
    _as_schema_8(backup)
    caplog.set_level(logging.WARNING, logger="bot.discord_app.alias_cache")
    async with start_bot(store) as bot:
        await bot.state.servers.check()
        source, target = sqlite3.connect(backup), sqlite3.connect(scene.db_path)
        try:
            source.backup(target)  # SQLite's `.restore`: the same file, under the bot
        finally:
            source.close()
            target.close()
        await bot.state.servers.check()  # the counters as they were: nothing seen
        for alias in ("zorb", "blorp"):
            added = await fake.slash(
                scene.moderator, "alias add", {"alias": alias, "term": "rag"}, channel=scene.channel
            )
            assert (await added.final_message())["content"] == SCHEMA_BEHIND
    said = [r for r in caplog.records if "went back to schema version 8" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in caplog.records]
    assert "restart the bot" in said[0].getMessage()


def _one_term(name: str) -> tuple[ServerTerm, ...]:
    return (
        ServerTerm(
            id=name.lower(),
            title=f"{name} Board",
            definition=f"The {name.lower()} board that says who is on call this week.",
            category="Fundamentals",
        ),
    )


async def test_the_vector_cache_lets_go_of_an_idle_servers_vectors_before_a_busy_ones(
    scene: Scene, bot: GlossaryBot, store: Store, tmp_path: Path
) -> None:
    """outsider51's note: past its limit the term-vector cache let go of the vectors embedded
    first, a busy server's (read once at its start, asked all day since) before an idle one's
    embedded later, so the busy one embedded them again at its next read (after a restart, or
    let go by SERVER_CACHE_MB). Now the servers held in memory keep theirs, and the rest go
    least recently used first. Here the cache keeps 4 texts (two a term)."""
    shared = bot.state.servers._vectors()
    assert shared is not None
    vectors = TermVectors(shared.encoder, tmp_path, kept=4)
    bot.state.servers._term_vectors = vectors
    busy, new = 9001, 9003
    for scope, name in ((busy, "Qxbusy"), (new, "Qxnew")):
        await change_terms(store, scope, lambda *_, n=name: (TermChange(put=_one_term(n)), None), 1)
    servers = bot.state.servers
    busy_texts = [text for _, text in (await servers.embedded(busy)).texts]
    # A server read since and let go (IDLE_AFTER): its vectors in the cache, it not held.
    idle_texts = ["Qxidle Board. The idle server's board.", "The idle server's board."]
    vectors.embed(idle_texts)
    await servers.local(busy)  # asked again
    await servers.embedded(new)  # two more texts: two of the six go
    assert vectors.missing(busy_texts) == []  # before: both gone
    assert vectors.missing(idle_texts) == idle_texts
