"""review64 (PLAN.md, "Attacks on left58 (review64)"): this session's product changes (left58)
attacked through the fake Discord as members and moderators meet them."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import TERM, add_term

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_left58_discord import _two_long_titled_terms

SPOOF = "bl\u043erp"  # "blorp" with a Cyrillic о


async def test_the_look_alike_index_follows_removals_and_other_processes(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The server's look-alike index is kept once a moderator checks an alias: a removed
    alias's look-alike is free then, and one added by another process is a look-alike."""
    added = await moderator_answer(scene, "alias add", {"alias": "blorp", "term": "rag"})
    assert added.startswith("Added"), added
    refused = await moderator_answer(scene, "alias add", {"alias": SPOOF, "term": "kv-cache"})
    assert "“blorp”" in refused, refused  # the index is built now
    removed = await moderator_answer(scene, "alias remove", {"alias": "blorp"})
    assert removed.startswith("Removed"), removed
    added = await moderator_answer(scene, "alias add", {"alias": SPOOF, "term": "kv-cache"})
    assert added.startswith("Added"), added
    # Another process (a second bot, `aliases import`) adds "snarf": its look-alike is refused.
    other = await Store.open(scene.db_path)
    try:
        stored = await other.add_alias(scene.guild.id, "snarf", "snarf", "lora", 1)
        assert str(stored.status).lower().endswith("added"), stored
    finally:
        await other.close()
    refused = await moderator_answer(
        scene, "alias add", {"alias": "sn\u0430rf", "term": "kv-cache"}
    )
    assert "“snarf”" in refused, refused


async def test_an_alias_removed_by_another_process_frees_its_look_alikes(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The kept index, built by a refusal, then the alias removed by a second bot on the same
    database: its look-alike is free for the next moderator's `/alias add`."""
    added = await moderator_answer(scene, "alias add", {"alias": "blorp", "term": "rag"})
    assert added.startswith("Added"), added
    refused = await moderator_answer(scene, "alias add", {"alias": SPOOF, "term": "kv-cache"})
    assert "“blorp”" in refused, refused
    other = await Store.open(scene.db_path)
    try:
        assert await other.remove_alias(scene.guild.id, "blorp", 1) is not None
    finally:
        await other.close()
    added = await moderator_answer(scene, "alias add", {"alias": SPOOF, "term": "kv-cache"})
    assert added.startswith("Added"), added


async def test_a_server_term_removed_frees_its_aliases_look_alikes(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    await add_term(scene)
    added = await moderator_answer(scene, "alias add", {"alias": "blorp", "term": "zorblax"})
    assert added.startswith("Added"), added
    refused = await moderator_answer(scene, "alias add", {"alias": SPOOF, "term": "rag"})
    assert "“blorp”" in refused, refused
    asked = await scene.fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
    await clicked.followups(1)
    added = await moderator_answer(scene, "alias add", {"alias": SPOOF, "term": "rag"})
    assert added.startswith("Added"), added


async def test_words_to_the_bot_beside_a_question_or_a_server_s_name(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A question that merely starts with "help" or "thanks" is not taken for words said to
    the bot; a server's alias "thanks" opens its card, in any case; "HELP" is how to ask, and
    so is "thank you 🙏" (a public "No entry" and a missed search: the emoji was read as a term).
    """
    for text, title in (
        ("help me understand lora", "LoRA"),
        ("thanks, what is rag?", "RAG"),
        ("help with kv cache", "KV Cache"),
        ("HELP: what is rag", "RAG"),
    ):
        _, answer = await define(scene.fake, scene.alice, text, scene.channel)
        assert "`/define`" not in answer["content"], (text, answer["content"])
        # A card, or search's "Did you mean" naming it ("help me understand lora": search's
        # reading, not the how-to rule's).
        shown = embed_of(answer)["title"] if answer["embeds"] else str(buttons(answer))
        assert title in shown + answer["content"], (text, answer["content"], shown)
    for text in ("HELP", "Thanks!", "thank you 🙏", "Help?"):
        _, answer = await define(scene.fake, scene.alice, text, scene.channel)
        assert not answer["embeds"], (text, embed_of(answer)["title"])
        assert "`/define`" in answer["content"], (text, answer)
        assert is_ephemeral(answer), (text, answer)
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []  # "thank you 🙏" was one
    added = await moderator_answer(scene, "alias add", {"alias": "thanks", "term": "lora"})
    assert added.startswith("Added"), added
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} hi 👋🏽")
    reply = await fake.wait_for_channel_message(scene.channel)
    assert not reply["embeds"], embed_of(reply)["title"]
    assert "No entry" not in reply["content"], reply["content"]  # the mention's help line
    for text in ("thanks", "THANKS"):
        _, answer = await define(scene.fake, scene.alice, text, scene.channel)
        assert answer["embeds"], (text, answer["content"])
        assert "LoRA" in embed_of(answer)["title"], (text, answer)


def _middle_title(middle: str) -> str:
    """A 256-character title alike in its start and its end, `middle` in the middle."""
    head = "Zorbledger " + " ".join(f"shard{n}" for n in range(20))
    tail = " ".join(f"tail{n}" for n in range(40))
    title = f"{head} {middle} {tail}"
    return title[:256]


async def test_two_long_titles_that_differ_in_the_middle_are_told_apart(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    alpha, omega = _middle_title("Alpha"), _middle_title("Omega")
    assert len(alpha) == len(omega) == 256
    assert alpha != omega
    names = [c["name"] for c in await _two_long_titled_terms(scene, alpha, omega)]
    assert len(set(names)) == 2, names
    _, card = await define(scene.fake, scene.alice, "zorbhub", scene.channel)
    labels = [b for b in buttons(card) if b.startswith("Zorbledger")]
    assert len(set(labels)) == 2, buttons(card)


async def test_a_title_of_markdown_signs_at_the_cap_shows_its_card(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Escaping a title for the embed doubles each `*`, `_`, `\\`: a 256-character title of
    them is 512 escaped, past an embed title's 256."""
    for title in ("Zorb " + "*_" * 125 + "x", "Zorb " + "\\" * 251):
        values = {**TERM, "title": title, "other_names": "", "related": ""}
        added = await add_term(scene, values)
        assert added["content"].startswith("Added"), added["content"][:200]
        # /define's box takes 100 characters (product72): the title as autocomplete offers it.
        typed = await scene.fake.autocomplete(
            scene.alice, "define", {"term": title[:100]}, focused="term", channel=scene.channel
        )
        [first, *_] = await typed.choices()
        _, card = await define(scene.fake, scene.alice, first["value"], scene.channel)
        assert card["embeds"], card["content"][:300]
        assert len(embed_of(card)["title"]) <= 256, embed_of(card)["title"]
