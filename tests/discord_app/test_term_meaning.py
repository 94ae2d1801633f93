"""A server's own terms found by what they mean (issues 12 and 13), through the fake Discord:
in their server only, never in another server or in DMs; a term edited while it is being
embedded ends with its new text's vector."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Store
from bot.term_storage import TermChange, change_terms
from tests.search.server_term_meanings import DESCRIBED, GLORP, TERMS

from .conftest import Scene, StartBot
from .helpers import define

EMBEDDING_WITHIN = 300.0  # a bound, not a speed claim: six texts on a shared, loaded machine


def shown_titles(message: Any) -> set[str]:
    """Every entry title a /define answer shows: its card's title and its buttons' labels."""
    titles = {e.get("title", "") for e in message.get("embeds", [])}
    for row in message.get("components", []):
        titles |= {c.get("label", "") for c in row.get("components", [])}
    return titles


async def put_terms(store: Store, scope: int, *terms: Any) -> None:
    await change_terms(store, scope, lambda *_: (TermChange(put=terms), None), 1)


async def test_a_description_finds_the_servers_term_there_and_nowhere_else(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With a cache folder the bot cannot write: it embeds all the same, and says so once."""
    fake = scene.fake
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("", "utf-8")
    monkeypatch.setenv("GLOSSARY_CACHE_DIR", str(blocked))
    await put_terms(store, scene.guild.id, *TERMS)
    async with start_bot(store) as bot:
        with caplog.at_level(logging.WARNING):
            local = await asyncio.wait_for(
                bot.state.servers.embedded(scene.guild.id), EMBEDDING_WITHIN
            )
        assert local.complete
        said = [r.getMessage() for r in caplog.records if "GLOSSARY_CACHE_DIR" in r.getMessage()]
        assert len(said) == 1, said
        dm = fake.dm_channel(scene.alice)
        for description, term in DESCRIBED:
            _, here = await define(fake, scene.alice, description, scene.channel)
            if here["embeds"]:
                assert here["embeds"][0]["title"] == term.title
            else:  # "Did you mean": the thresholds are the bundled entries' own
                assert here["content"].startswith("Did you mean")
                first = here["components"][0]["components"][0]
                assert first["label"] == term.title
            for channel in (scene.other_channel, dm):
                _, elsewhere = await define(fake, scene.alice, description, channel)
                assert term.title not in shown_titles(elsewhere)


async def test_a_term_edited_while_it_is_embedded_ends_with_its_new_text(
    scene: Scene, start_bot: StartBot, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GLOSSARY_CACHE_DIR", str(tmp_path / "cache"))  # nothing embedded yet
    await put_terms(store, scene.guild.id, *TERMS)
    edited = GLORP.model_copy(
        update={"definition": "The laminated card by the coffee machine listing who to page."}
    )
    async with start_bot(store, alias_check_interval=0.05) as bot:
        servers = bot.state.servers
        # The bot embeds the terms as it starts (a batch takes a second or more); the edit
        # lands meanwhile, through another connection.
        other = await Store.open(scene.db_path, flush_interval=None)
        try:
            await put_terms(other, scene.guild.id, edited)
        finally:
            await other.close()
        await servers.reload(scene.guild.id)  # what the next version check does
        local = await asyncio.wait_for(servers.embedded(scene.guild.id), EMBEDDING_WITHIN)
        assert edited in local.terms
        assert local.complete
        assert edited.definition in {text for _, text in local.texts}
        assert GLORP.definition not in {text for _, text in local.texts}
        assert local.embedded == len(local.texts)
