"""What an alias may be (issue 10, items 4 and 5), asked through /alias add as a moderator."""

from __future__ import annotations

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store

from .conftest import Scene
from .helpers import define, embed_of, is_ephemeral
from .test_aliases import add

RAG = "Retrieval-Augmented Generation (RAG)"
MARKUP = "An alias cannot contain Discord markup (emoji, timestamps, links)."


async def test_aliases_search_reads_alike_are_one_alias(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    assert await add(scene, scene.moderator, "zorb lax", "kv-cache") == (
        "Added: “zorb lax” now opens **KV Cache** in this server."
    )
    for spelling in ("zorblax", "zorb'lax", "Zorb-Lax", "zorb laxes"):
        answer = await add(scene, scene.moderator, spelling, "rag")
        assert answer.startswith("“"), answer
        assert "is already this server's alias for **KV Cache**" in answer
        assert "Remove it first" in answer
    assert [(a.key, a.entry_id) for a in await store.list_aliases(scene.guild.id)] == [
        ("zorb lax", "kv-cache")
    ]
    for spelling in ("zorb lax", "zorblax", "zorb-lax"):
        _, card = await define(scene.fake, scene.alice, spelling, scene.channel)
        assert embed_of(card)["title"] == "KV Cache"


@pytest.mark.parametrize(
    ("alias", "holder"),
    [
        ("kv caches", "KV Cache"),  # the plural of a title
        ("KV-Caches", "KV Cache"),
        ("what is a kv cache", "KV Cache"),  # the question around a name
        ("finetune", "Fine-Tuning"),  # a name, give or take a typo
        ("speculative", "Speculative Decoding"),  # the start of a name
    ],
)
async def test_an_alias_cannot_take_what_search_finds_by_name(
    scene: Scene, bot: GlossaryBot, store: Store, alias: str, holder: str
) -> None:
    answer = await add(scene, scene.moderator, alias, "rag")
    assert f"**{holder}**" in answer  # names the entry that holds it
    assert not answer.startswith("Added")
    assert await store.list_aliases(scene.guild.id) == []
    _, after = await define(scene.fake, scene.alice, alias, scene.channel)
    assert not after["embeds"] or embed_of(after)["title"] != RAG


@pytest.mark.parametrize(
    ("alias", "answer"),
    [
        ("\u3164\u3164", "An alias cannot contain control or invisible characters."),
        ("\u2800abc", "An alias cannot contain control or invisible characters."),
        # A symbol drawn as nothing (the musical null notehead), like the braille blank.
        ("\U0001d159zorb", "An alias cannot contain control or invisible characters."),
        ("kv\u200bstash", "An alias cannot contain control or invisible characters."),
        ("kv\u202estash", "An alias cannot contain control or invisible characters."),
        ("kv\ue000stash", "An alias cannot contain control or invisible characters."),
        ("\uffa0zorb", "An alias cannot contain control or invisible characters."),
        ("zorb\u2028lax", "An alias cannot contain control or invisible characters."),
        ("＠everyone", "An alias cannot contain mentions."),
        ("＠ｈｅｒｅ zorb", "An alias cannot contain mentions."),
        ("<t:99999999999:F>", MARKUP),
        ("</define:123>", MARKUP),
        ("<:pepe:123>", MARKUP),
        ("<a:dance:123> zorb", MARKUP),
        ("ｈｔｔｐｓ://evil.example", "An alias cannot contain links."),
    ],
)
async def test_invisible_text_markup_and_lookalikes_are_refused(
    scene: Scene, bot: GlossaryBot, store: Store, alias: str, answer: str
) -> None:
    assert await add(scene, scene.moderator, alias, "kv-cache") == answer
    assert await store.list_aliases(scene.guild.id) == []


async def test_an_alias_is_stored_as_nfkc_text(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    assert await add(scene, scene.moderator, "ｚｏｒｂ　ｌａｘ", "kv-cache") == (
        "Added: “zorb lax” now opens **KV Cache** in this server."
    )
    [alias] = await store.list_aliases(scene.guild.id)
    assert (alias.key, alias.text) == ("zorb lax", "zorb lax")
    handle = await scene.fake.slash(scene.moderator, "alias list", {}, channel=scene.channel)
    listing = await handle.final_message()
    assert is_ephemeral(listing)
    assert "“zorb lax” → KV Cache" in embed_of(listing)["description"]
