"""What a second round of outside testing broke through `glossary-bot run` (issue 10, items 4, 5
and 7 after their rework): aliases added at once by two moderators, an alias that takes the key
inside another one's question, Discord markup and links after a letter in echoed text, and
aliases of nothing but combining marks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.aliases import AliasRejected, check_alias
from bot.glossary import Glossary
from bot.search.index import SearchIndex
from bot.storage import AliasImport, Store
from tests.discord_app.helpers import define, embed_of

from .botproc import BotProcess, import_aliases
from .conftest import Scene
from .helpers import add_alias as add
from .helpers import stored_aliases

SUPPRESS_EMBEDS = 1 << 2


async def test_two_moderators_adding_aliases_search_reads_alike_at_once_get_one(
    scene: Scene, tmp_path: Path
) -> None:
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000"):
        fake.settle_before_actions = False  # both arrive before either is answered
        for n in range(3):
            answers = await asyncio.gather(
                add(fake, scene.moderator, f"zorb lax{n}", "kv-cache", scene.channel),
                add(fake, scene.admin, f"zorblax{n}", "rag", scene.channel),
            )
            assert len([a for a in answers if a.startswith("Added")]) == 1, answers
        for n in range(3):
            _, card = await define(fake, scene.alice, f"zorb-lax{n}", scene.channel)
            assert card["embeds"], card
    keys = [key for _, key, _ in stored_aliases(scene.db_path)]
    assert len(keys) == 3, keys


async def test_an_alias_cannot_take_the_term_inside_another_aliases_question(
    scene: Scene, tmp_path: Path
) -> None:
    """ "the zorb" is searched as itself and as "zorb": an alias "zorb" for another entry would
    turn /define the zorb into a choice between the two."""
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000"):
        for first, second in (
            ("the zorb", "zorb"),
            ("what is blorp", "blorp"),
            ("quux", "the quux"),
        ):
            assert (await add(fake, scene.moderator, first, "kv-cache", scene.channel)).startswith(
                "Added"
            )
            answer = await add(fake, scene.moderator, second, "rag", scene.channel)
            assert "this server's alias for **KV Cache**" in answer, answer
            _, card = await define(fake, scene.alice, first, scene.channel)
            assert card["embeds"], (first, card)
            assert embed_of(card)["title"] == "KV Cache", first
        # Another server is another namespace: there "zorb" is free.
        answer = await add(fake, scene.other_moderator, "zorb", "rag", scene.other_channel)
        assert answer.startswith("Added"), answer


async def test_echoed_text_renders_no_discord_markup_and_no_link(
    scene: Scene, tmp_path: Path
) -> None:
    fake = scene.fake
    channel_id, role_id = scene.channel.id, scene.guild.id
    baits = [
        "1https://evil.example/free-nitro",
        "_https://evil.example/free-nitro",
        "éhttps://evil.example/free-nitro",
        "<t:99999999999:F>",
        "</define:123456789012345678>",
        "<:pepe:123456789012345678>",
        "<a:dance:123456789012345678>",
        f"<#{channel_id}>",
        f"<@&{role_id}>",
        "<id:customize>",
        "discord.gg/free-nitro",
    ]
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000"):
        for bait in baits:
            # "zorb" keeps it a "Did you mean" (which echoes the query): search reads past
            # mentions and custom emoji, so "attention <:pepe:1>" alone is Attention's card.
            _, message = await define(fake, scene.alice, f"attention zorb {bait}", scene.channel)
            content = str(message["content"])
            assert content.startswith("Did you mean one of these for “attention zorb "), content
            assert int(message.get("flags") or 0) & SUPPRESS_EMBEDS
            assert "://" not in content, content
            assert "discord.gg/" not in content, content
            # Discord renders <...> markup unless its "<" is escaped.
            assert "<" not in content.replace("\\<", ""), content


async def test_an_alias_of_only_combining_marks_is_refused(scene: Scene, tmp_path: Path) -> None:
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000"):
        for alias in ("\u0301\u0301\u0301", "\u20dd", " \u0300 \u0301 "):
            answer = await add(fake, scene.moderator, alias, "rag", scene.channel)
            assert not answer.startswith("Added"), (alias, answer)
        # Marks on letters are ordinary text (decomposed "café", Vietnamese, Devanagari).
        for alias in ("cafe\u0301 zorb", "tiê\u0301ng zorb", "हिन्दी zorb"):
            answer = await add(fake, scene.moderator, alias, "rag", scene.channel)
            assert answer.startswith("Added"), (alias, answer)
    assert len(stored_aliases(scene.db_path)) == 3


# Words search peels off or folds (openers, closers, plurals, case) and ways to join them.
WORDS = ["zorb", "zorbs", "blix", "blixes", "quy", "quies", "the", "a", "what", "is", "define"]
WORDS += ["meaning", "of", "in", "ml", "please", "mean", "does", "what's", "Zorb", "ZORB", "'"]
ALIAS = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", "-", "", "'", "_"])),
    min_size=1,
    max_size=4,
).map(lambda parts: "".join(w + sep for w, sep in parts).strip())


@pytest.fixture(scope="module")
def index(glossary: Glossary) -> SearchIndex:
    return SearchIndex.build(glossary)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(first=ALIAS, second=ALIAS)
@example(first="the zorb", second="zorb")
@example(first="a -'quies", second="quies")
@example(first="a blixes", second="blixes-_")
@example(first="'_what-ofzorb", second="of Zorb _")
def test_two_aliases_the_rules_accept_leave_each_others_search_alone(
    index: SearchIndex, first: str, second: str
) -> None:
    try:
        first_key, first_text = check_alias(first, "kv-cache", index)
        second_key, second_text = check_alias(second, "rag", index, {first_key: "kv-cache"})
    except AliasRejected:
        return
    alone = index.search(first_text, {first_key: "kv-cache"}).entry
    both = {first_key: "kv-cache", second_key: "rag"}
    assert index.search(first_text, both).entry == alone
    found = index.search(second_text, both).entry
    assert found is not None
    assert found.id == "rag"


async def test_an_import_refuses_what_clashes_with_stored_aliases_or_earlier_lines(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.db"
    store = await Store.open(db, flush_interval=None)
    try:
        await store.import_aliases([AliasImport(1, "zorb lax", "zorb lax", "kv-cache")])
    finally:
        await store.close()
    document = [
        {"guild_id": 1, "alias": "zorblax", "entry_id": "rag"},  # the stored one
        {"guild_id": 1, "alias": "quux frob", "entry_id": "rag"},
        {"guild_id": 1, "alias": "quuxfrob", "entry_id": "kv-cache"},  # the line above
        {"guild_id": 1, "alias": "the blorp", "entry_id": "rag"},
        {"guild_id": 1, "alias": "blorp", "entry_id": "kv-cache"},  # inside the above
        {"guild_id": 2, "alias": "zorblax", "entry_id": "rag"},  # another server
    ]
    status, out, err = await import_aliases(document, db, tmp_path)
    assert status == 1, (out, err)
    refused = [line.split(":")[0] for line in err.splitlines()]
    assert refused == ["item 1", "item 3", "item 5"], err
    assert "Traceback" not in err
    assert [(scope, key) for scope, key, _ in stored_aliases(db)] == [
        (1, "quux frob"),
        (1, "the blorp"),
        (1, "zorb lax"),
        (2, "zorblax"),
    ]
