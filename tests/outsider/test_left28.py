"""Leftovers of rounds 22-23 and the last review (task left28, PLAN.md "Leftovers of rounds
22-23 (left28)"): the real bot (discord.py) against the fake Discord, real SQLite files."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import aiosqlite
import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, embed_of
from tests.discord_app.term_commands import run_import, suggest_from_a_miss

from .conftest import Scene
from .test_round19 import accept_form

IRONHOLD = """
[[entries]]
id = "iron-gate"
title = "Iron Gate"
category = "Fundamentals"
definition = "The guild's meeting spot before a raid: the portal square of the capital."

[[entries]]
id = "obsidian-shard"
title = "Obsidian Shard"
aliases = ["the shard"]
category = "Fundamentals"
definition = "The ten-boss raid dungeon the guild is progressing this season."
related = ["shard-run"]

[[entries]]
id = "shard-run"
title = "Shard Run"
category = "Fundamentals"
definition = "Our weekly clear of the Obsidian Shard on Sunday afternoon, open to alts."

[[entries]]
id = "checkpoint"
title = "Checkpoint"
category = "Fundamentals"
definition = "The save point in the Obsidian Shard after the third boss."
related = ["obsidian-shard"]
"""


async def import_ironhold(scene: Scene) -> None:
    """Round 23's guild, the few terms these leftovers need (`round23_guild.toml`'s)."""
    answer = await run_import(scene, scene.fake.add_attachment("ironhold.toml", IRONHOLD))
    assert answer.startswith("Imported: 4 added"), answer


async def alias_add(scene: Scene, alias: str, term: str) -> str:
    added = await scene.fake.slash(
        scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
    )
    return str((await added.final_message())["content"])


@contextmanager
def commits_failing(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every COMMIT on a SQLite connection fails as a full disk fails it (the statements before
    it ran); yields the COMMITs refused."""
    refused: list[str] = []
    execute = aiosqlite.Connection.execute

    async def refuse() -> None:
        raise sqlite3.OperationalError("database or disk is full")

    def failing(self: aiosqlite.Connection, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            refused.append(sql)
            return refuse()
        return execute(self, sql, *args)

    with monkeypatch.context() as patched:
        patched.setattr(aiosqlite.Connection, "execute", failing)
        yield refused


async def test_a_term_form_whose_commit_fails_keeps_the_text_for_edit_again(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """left26's note: a `/term` write whose COMMIT itself fails, after its plan ran and marked
    the term saved. The answer must claim nothing and keep the text (Edit again), as review25's
    failure at the term's insert does; a waiting suggestion of that name stays open."""
    fake = scene.fake
    await store.add_suggestion(scene.guild.id, scene.alice.id, "Zorblax", "The nightly job.")
    opened = await fake.slash(
        scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
    )
    await opened.response()
    values = {"title": "Zorblax", "definition": "The nightly job that re-ranks documents."}
    with commits_failing(monkeypatch) as refused:
        answer = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    assert refused, "no COMMIT was tried"
    assert answer["content"].startswith("The database cannot be written right now"), answer
    assert "accepted" not in answer["content"].lower(), answer
    assert "Edit again" in buttons(answer), answer
    assert [s.title for s in await store.open_suggestions(scene.guild.id)] == ["Zorblax"]
    assert await read_terms(store, scene.guild.id) == []
    again = await fake.click(scene.moderator, answer, buttons(answer)["Edit again"])
    await again.response()
    saved = await (await fake.submit_modal(scene.moderator, again, {})).final_message()
    assert saved["content"].startswith("Added **Zorblax**"), saved


async def test_an_accept_form_whose_commit_fails_keeps_the_text_and_the_suggestion_open(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for an Accept… form, whose write decides its suggestion too: nothing claimed,
    the suggestion still open (its member told nothing), the text kept; saved again, the term
    is written and the suggestion accepted with it."""
    fake = scene.fake
    assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
    form = await accept_form(scene, scene.moderator)
    with commits_failing(monkeypatch) as refused:
        sent = await fake.submit_modal(scene.moderator, form, {"title": "Zorblax"})
        answer = await sent.final_message()
    assert refused, "no COMMIT was tried"
    assert answer["content"].startswith("The database cannot be written right now"), answer
    assert "Edit again" in buttons(answer), answer
    assert [s.title for s in await store.open_suggestions(scene.guild.id)] == ["zorblax"]
    assert fake.store.channel_messages(fake.dm_channel(scene.alice).id) == []
    again = await fake.click(scene.moderator, answer, buttons(answer)["Edit again"])
    await again.response()
    saved = await (await fake.submit_modal(scene.moderator, again, {})).final_message()
    assert saved["content"].startswith("Added **Zorblax**"), saved
    assert await store.open_suggestions(scene.guild.id) == []


async def test_an_alias_that_is_a_bundled_name_with_an_article_says_how_search_reads_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Round 23's G5: `/alias add the gate` for the guild's Iron Gate was refused, "“the gate"
    already names **Gate** in the glossary" (the bundled Gate): true to the README's rule (search
    reads a name with words around it, "the", "what is", as that name, so the alias would take
    `gate` from Gate), but the moderator, who typed no "gate", was not told why or what to
    add instead. Refused still, it now says how search reads it and what to choose; an alias
    that is a name outright keeps its short answer."""
    await import_ironhold(scene)
    said = await alias_add(scene, "the gate", "Iron Gate")
    head = "“the gate” already names **Gate** in the glossary: search reads it as “gate”"
    assert said.startswith(head), said
    assert "“the”" in said, said
    assert "Choose" in said, said
    assert await alias_add(scene, "gate", "Iron Gate") == (
        "“gate” already names **Gate** in the glossary."
    )
    assert (await alias_add(scene, "the portal", "Iron Gate")).startswith("Added"), said


async def test_a_server_term_titled_as_a_bundled_entry_shows_its_own_related_terms_only(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    """Round 23's G12: the guild's Checkpoint (a raid's save point, related to Obsidian Shard)
    leads the bundled Checkpoint's card, as the README says of a term titled like an entry,
    but the card kept the bundled entry's related buttons too (Training, Dataset, Validation
    Loss...): AI terms under a raid's save point. Now a server term's card shows the related
    terms its server gave it; the bundled wording stays one of the card's sources."""
    fake = scene.fake
    assert glossary["checkpoint"].related  # the bundled entry has buttons of its own
    await import_ironhold(scene)
    _, card = await define(fake, scene.alice, "checkpoint", scene.channel)
    assert embed_of(card)["title"] == "Checkpoint"
    assert "save point" in embed_of(card)["description"], card
    assert list(buttons(card)) == ["Obsidian Shard"], buttons(card)  # no Plain words (left29)
    _, other = await define(fake, scene.alice, "checkpoint", scene.other_channel)
    assert embed_of(other)["title"] == "Checkpoint"
    assert "Obsidian Shard" not in buttons(other), buttons(other)


async def test_a_mention_of_the_bots_role_is_told_how_to_ask(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Round 20's O2: a member types "@Glossary" and picks the bot's managed role from the list
    (Discord lists both): the message mentions the role (`<@&id>`, in `mention_roles`), not the
    bot, and Discord withholds its text from a bot without the message content intent, as it
    does for any message that does not mention the bot itself. The bot said nothing, so the
    member saw a bot that ignores them. Now it knows its role (`guild.self_role`, from the
    role's `tags.bot_id`) and says how to ask: mention the bot itself, or `/define`."""
    fake = scene.fake
    [bot_role] = [role for role in scene.guild.roles.values() if role.managed]
    guild = bot.get_guild(scene.guild.id)
    assert guild is not None
    assert guild.self_role is not None
    assert guild.self_role.id == bot_role.id
    said = await fake.user_message(scene.alice, scene.channel, f"{bot_role.mention} what is rag")
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["message_reference"]["message_id"] == said["id"], answer
    assert "my role" in answer["content"], answer
    assert "/define" in answer["content"], answer
    assert not answer.get("embeds"), answer
    # The bot itself mentioned: the card, as ever.
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")
    card = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)", card


async def test_a_word_two_server_terms_share_opens_the_one_it_names(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Round 23's G9: the guild's Shard Run and Obsidian Shard, whose other name is "the
    shard": `shard` opened Shard Run's card (the start of its title) though the guild calls the
    dungeon "the shard", which search reads as "shard". left28 offered both, the other name
    read without its "the" being then a weak part of the term. product75 reads a server term's
    names as search reads them typed alone, as its aliases and titles are (one reading): "the
    shard" names Obsidian Shard as "shard" outright, so `shard` opens it, Shard Run (the start
    of a title only) its Related button. Their exact names and the other name stay cards."""
    fake = scene.fake
    await import_ironhold(scene)
    _, card = await define(fake, scene.alice, "shard", scene.channel)
    assert embed_of(card)["title"] == "Obsidian Shard", card
    assert "Shard Run" in buttons(card), buttons(card)
    for name, title in (
        ("the shard", "Obsidian Shard"),
        ("obsidian shard", "Obsidian Shard"),
        ("shard run", "Shard Run"),
    ):
        _, card = await define(fake, scene.alice, name, scene.channel)
        assert embed_of(card)["title"] == title, (name, card)
