"""A server's alias or term cannot take a look-alike of another entry's name (Unicode confusables:
a Cyrillic "А" in "RAG", fullwidth letters, a Greek "Ο" for "O", mixed scripts); a name wholly in
another script that looks like nothing here is welcome. Asked through the fake Discord."""

from __future__ import annotations

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms

from .conftest import Scene
from .helpers import define, embed_of
from .term_commands import add_term, open_add, run_import, submit
from .test_aliases import add

RAG = "Retrieval-Augmented Generation (RAG)"
ZORBLAX = {
    "title": "Zorblax",
    "definition": "The team's nightly batch job that re-ranks documents.",
}


@pytest.mark.parametrize(
    ("alias", "holder"),
    [
        ("R\u0410G", RAG),  # Cyrillic capital A
        ("r\u0430g", RAG),  # Cyrillic small a
        ("\u0280\u1d00\u0262", RAG),  # small-capital Latin letters
        ("L\u03bfRA", "LoRA & QLoRA"),  # Greek small omicron
        ("Z\u0435R\u039f", "Zero Redundancy Optimizer"),  # Cyrillic e, Greek capital O
        ("M\u043e\u0415", "Mixture of Experts (MoE)"),  # Cyrillic o and E
        ("\u13a0PO", "Direct Preference Optimization (DPO)"),  # a Cherokee letter for D
        ("k\u0435y-v\u0430lu\u0435 \u0441\u0430\u0441h\u0435", "KV Cache"),  # an alias's look-alike
    ],
)
async def test_an_alias_cannot_look_like_another_entrys_name(
    scene: Scene, bot: GlossaryBot, store: Store, alias: str, holder: str
) -> None:
    answer = await add(scene, scene.moderator, alias, "sgd")
    assert not answer.startswith("Added"), answer
    assert "looks like" in answer, answer
    assert f"**{holder}**" in answer, answer
    assert await store.list_aliases(scene.guild.id) == []
    _, card = await define(scene.fake, scene.alice, alias, scene.channel)
    assert not card["embeds"] or embed_of(card)["title"] != "Stochastic Gradient Descent (SGD)"


async def test_a_fullwidth_name_is_the_name_itself_and_refused(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    answer = await add(scene, scene.moderator, "\uff32\uff21\uff27", "sgd")  # ＲＡＧ
    assert not answer.startswith("Added"), answer
    assert f"**{RAG}**" in answer, answer
    assert await store.list_aliases(scene.guild.id) == []


async def test_an_alias_cannot_look_like_the_servers_own_alias_or_term(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    assert (await add(scene, scene.moderator, "kv stash", "kv-cache")).startswith("Added")
    assert (await add_term(scene, ZORBLAX))["content"].startswith("Added **Zorblax**")
    stash = await add(scene, scene.moderator, "kv st\u0430sh", "rag")  # Cyrillic a
    assert "looks like" in stash, stash
    assert "**KV Cache**" in stash, stash
    zorb = await add(scene, scene.moderator, "Z\u043erblax", "rag")  # Cyrillic o
    assert "looks like" in zorb, zorb
    assert "**Zorblax**" in zorb, zorb
    assert [a.key for a in await store.list_aliases(scene.guild.id)] == ["kv stash"]


async def test_an_alias_may_look_like_a_name_of_its_own_entry(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    # Not a trap: it opens the very card its look-alike opens.
    answer = await add(scene, scene.moderator, "k\u0435y v\u0430lu\u0435 c\u0430che", "kv-cache")
    assert answer.startswith("Added"), answer


SGD = ("sgd", "Stochastic Gradient Descent (SGD)")
KV_CACHE = ("kv-cache", "KV Cache")


@pytest.mark.parametrize(
    ("alias", "entry"),
    [
        ("\u043a\u044d\u0448", KV_CACHE),  # кэш: Russian for cache
        ("\u041a\u0435\u0448-\u043f\u0430\u043c\u044f\u0442\u044c", KV_CACHE),  # Кеш-память
        ("\u30ad\u30e3\u30c3\u30b7\u30e5", KV_CACHE),  # キャッシュ
        ("\u03ba\u03c1\u03c5\u03c6\u03ae \u03bc\u03bd\u03ae\u03bc\u03b7", KV_CACHE),  # κρυφή μνήμη
        # Skeletons of LLM and MSE, but typed in ASCII: words of their own, not look-alikes.
        ("IIM", SGD),
        ("rnse", SGD),
    ],
)
async def test_a_name_that_looks_like_nothing_here_is_added(
    scene: Scene, bot: GlossaryBot, store: Store, alias: str, entry: tuple[str, str]
) -> None:
    entry_id, title = entry
    answer = await add(scene, scene.moderator, alias, entry_id)
    assert answer.startswith("Added"), answer
    _, card = await define(scene.fake, scene.alice, alias, scene.channel)
    assert embed_of(card)["title"] == title


async def test_the_term_form_refuses_a_look_alike_title_or_other_name(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    title = {**ZORBLAX, "title": "LL\u041c"}  # Cyrillic capital M
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    text = (await submit(scene, scene.moderator, opened, title))["content"]
    assert text.startswith("Nothing was saved:"), text
    assert "looks like" in text, text
    assert "**Large Language Model (LLM)**" in text, text

    other = {**ZORBLAX, "other_names": "zbx, \u0280\u1d00\u0262"}
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    text = (await submit(scene, scene.moderator, opened, other))["content"]
    assert text.startswith("Nothing was saved:"), text
    assert "looks like" in text, text
    assert f"**{RAG}**" in text, text
    assert await read_terms(store, scene.guild.id) == []

    # A server alias is a name too.
    assert (await add(scene, scene.moderator, "zorb stash", "kv-cache")).startswith("Added")
    stash = {**ZORBLAX, "title": "Z\u043erb st\u0430sh"}
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    text = (await submit(scene, scene.moderator, opened, stash))["content"]
    assert text.startswith("Nothing was saved:"), text
    assert "looks like" in text, text
    assert "**KV Cache**" in text, text
    assert await read_terms(store, scene.guild.id) == []


async def test_the_term_form_refuses_a_look_alike_of_another_server_term(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    assert (await add_term(scene, ZORBLAX))["content"].startswith("Added **Zorblax**")
    twin = {**ZORBLAX, "title": "Z\u043erblax"}  # Cyrillic o
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    text = (await submit(scene, scene.moderator, opened, twin))["content"]
    assert text.startswith("Nothing was saved:"), text
    assert "looks like “Zorblax”, a name of **Zorblax**" in text, text
    assert [t.title for t in await read_terms(store, scene.guild.id)] == ["Zorblax"]


async def test_the_term_form_takes_a_title_wholly_in_another_script(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    for title in (
        "\u0412\u0435\u043a\u0442\u043e\u0440\u043d\u0430\u044f \u0431\u0430\u0437\u0430",
        "\u30d9\u30af\u30c8\u30eb\u691c\u7d22",
    ):
        opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
        values = {**ZORBLAX, "title": title}
        text = (await submit(scene, scene.moderator, opened, values))["content"]
        assert text.startswith(f"Added **{title}**"), text
        _, card = await define(scene.fake, scene.alice, title, scene.channel)
        assert embed_of(card)["title"] == title
    assert len(await read_terms(store, scene.guild.id)) == 2


IMPORTED = """
[[entries]]
id = "zorblax"
title = "Zorblax"
category = "Retrieval & Context"
definition = "The team's nightly batch job that re-ranks retrieved documents."
aliases = [{alias}]
"""


@pytest.mark.parametrize(
    ("aliases", "holder"),
    [
        ('"zbx", "R\u0410G"', RAG),  # like a bundled name
        ('"zbx", "Z\u043erblax"', "Zorblax"),  # like its own file's other term (below)
    ],
)
async def test_an_import_with_a_look_alike_name_is_refused_whole(
    scene: Scene, bot: GlossaryBot, store: Store, aliases: str, holder: str
) -> None:
    toml = IMPORTED.format(alias=aliases)
    if "Z\u043erblax" in aliases:  # the look-alike belongs to a second term of the file
        toml = IMPORTED.format(alias='"zbx"') + IMPORTED.format(alias=aliases).replace(
            '"zorblax"', '"blorptex"'
        ).replace('"Zorblax"', '"Blorptex"')
    text = await run_import(scene, scene.fake.add_attachment("terms.toml", toml))
    assert text.startswith("Nothing was imported"), text
    assert "looks like" in text, text
    assert f"**{holder}**" in text, text
    assert await read_terms(store, scene.guild.id) == []


async def test_an_import_wholly_in_another_script_is_taken(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    toml = IMPORTED.format(alias='"\u30d9\u30af\u30c8\u30eb", "\u043a\u044d\u0448"')
    text = await run_import(scene, scene.fake.add_attachment("terms.toml", toml))
    assert text.startswith("Imported: 1 added"), text
    _, card = await define(scene.fake, scene.alice, "\u043a\u044d\u0448", scene.channel)
    assert embed_of(card)["title"] == "Zorblax"
