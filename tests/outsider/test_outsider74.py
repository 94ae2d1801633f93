"""outsider74: the moderator's day, every command with hostile input, the member, driven as
users do (tests/outsider/PLAN.md, "outsider74"): what broke or held, through the real
discord.py client against the fake Discord."""

from __future__ import annotations

import json
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.search.server_aliases import ServerAliases
from tests.discord_app.helpers import buttons, define, embed_of, selects
from tests.resilience.helpers import unhurried

from .conftest import Scene
from .test_left47 import moderator_answer

# The bundled topics JSON cut to its first topic, its topics last, as a moderator's file.
_BUNDLED = json.loads(
    (Path(__file__).parents[2] / "data/llm-studio-topics.json").read_text("utf-8")
)
ONE_TOPIC = json.dumps(
    {**{k: v for k, v in _BUNDLED.items() if k != "topics"}, "topics": _BUNDLED["topics"][:1]},
    indent=1,
)

THE_ZORBWELL = """
[[entries]]
title = "The Zorbwell"
definition = "The lab's shared store of checkpoints and their evaluation notes."
category = "Fundamentals"
"""


async def test_an_alias_that_opens_with_the_opens_its_card_when_asked_without_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: `/alias add alias:the quuxer term:rag` was taken, and `/term add` of a
    term "quuxer" was then refused as "already this server's alias “the quuxer”", yet `/define
    quuxer` and "@Glossary what is the quuxer?" (search reads a question's "the" away) answered
    "No entry" with a **Suggest it** button, and `/suggest quuxer` was queued: only the alias
    typed whole, "the quuxer", opened the card. The alias now opens it by its core too."""
    fake = scene.fake
    said = await moderator_answer(scene, "alias add", {"alias": "the quuxer", "term": "rag"})
    assert said.startswith("Added"), said
    for asked in ("the quuxer", "quuxer", "what is the quuxer?", "Quuxer"):
        _, answer = await define(fake, scene.alice, asked, scene.channel)
        assert embed_of(answer)["title"] == "Retrieval-Augmented Generation (RAG)", (asked, answer)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is the quuxer?")
    posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "Retrieval-Augmented Generation (RAG)", posted
    # The alias's own key is its own: "quux" typed is no alias (nor is "the" alone).
    _, answer = await define(fake, scene.alice, "the", scene.channel)
    assert not answer["embeds"], answer
    # So a member's /suggest of "quuxer" is told which card it opens, not queued.
    handle = await fake.slash(scene.alice, "suggest", {"term": "quuxer"}, channel=scene.channel)
    told = await handle.final_message()
    assert "Retrieval-Augmented Generation" in str(told), told


async def test_a_term_titled_with_the_opens_its_card_in_a_question(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: a server's term "The Zorbwell" (imported, or written in the form) opened
    only typed whole; "what is the zorbwell?" (search reads the question's "the" away),
    "@Glossary what is the zorbwell?" and "zorbwell" answered "Did you mean".
    A server term may take no name that reads so beside it, so the words after a title's
    article are its title too."""
    fake = scene.fake
    file = fake.add_attachment("terms.toml", THE_ZORBWELL)
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    for asked in ("The Zorbwell", "what is the zorbwell?", "zorbwell"):
        _, answer = await define(fake, scene.alice, asked, scene.channel)
        assert answer["embeds"], (asked, answer)
        assert embed_of(answer)["title"] == "The Zorbwell", (asked, answer)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is the zorbwell?")
    posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "The Zorbwell", posted


async def test_a_hand_edited_json_says_which_slip_breaks_it(scene: Scene, bot: GlossaryBot) -> None:
    """Failed before: a topics JSON edited by hand the way people do (a comment, a comma after
    the last item, single quotes) was refused with Python's words alone, "not valid JSON:
    Expecting value" (line 12), which do not say what to mend. The answer now names the slip,
    as a TOML file's smart quotes are named."""
    fake = scene.fake
    topics = ONE_TOPIC
    slips = {
        "// written by hand\n" + topics: "JSON has no comments (this one opens with //)",
        topics.removesuffix("\n}") + ",\n}": "a comma before this }",
        topics.removesuffix("]\n}") + ",]\n}": "a comma before this ]",
        topics.replace('"schemaVersion"', "'schemaVersion'"): "JSON strings take double quotes",
    }
    for text, named in slips.items():
        file = fake.add_attachment("terms.json", text)
        said = await moderator_answer(scene, "term import", {"file": file, "dry_run": True})
        assert said.startswith("Nothing was imported"), said
        assert named in said, (text, said)
    # The file without a slip is read: the hints come only with an error.
    file = fake.add_attachment("terms.json", topics)
    said = await moderator_answer(scene, "term import", {"file": file, "dry_run": True})
    assert "Would import: 1 added" in said, said


TWO_TERMS = """
[[entries]]
title = "Zorb Engine"
definition = "Our engine."
category = "Fundamentals"
plain = "It runs our models."
related = ["kv cache"]
"""
QUUX_STORE = """
[[entries]]
title = "Quux Store"
definition = "Our store."
category = "Fundamentals"
"""
GONE = "That entry is no longer in this server's glossary."  # left74: a server term


async def test_buttons_and_menus_pressed_twice_and_after_their_terms_went(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Holds (outsider74 C3): a card's buttons and Explain terms' menu, pressed twice by another
    member, give the same private card each time; once the term they open went (an import
    without it, `/term remove`), they say so in one line; a bundled card's button on a removed
    term's card still opens; a miss's **Suggest it**, pressed once the name became an alias,
    names the card it opens and queues nothing."""
    fake = scene.fake
    unhurried(fake)
    both = fake.add_attachment("t.toml", TWO_TERMS + QUUX_STORE)
    said = await moderator_answer(scene, "term import", {"file": both})
    assert said.startswith("Imported: 2 added"), said
    posted = await fake.user_message(scene.bob, scene.channel, "Zorb Engine vs Quux Store")
    listing = await (
        await fake.message_command(scene.alice, "Explain terms", posted)
    ).final_message()
    (menu,) = selects(listing)
    assert [o["value"] for o in menu["options"]] == ["zorb-engine", "quux-store"], menu
    _, card = await define(fake, scene.alice, "Zorb Engine", scene.channel)
    assert list(buttons(card)) == ["KV Cache", "Plain words"], card
    _, miss = await define(fake, scene.alice, "blorptastic", scene.channel)
    assert list(buttons(miss)) == ["Suggest it"], miss

    only_zorb = fake.add_attachment("t2.toml", TWO_TERMS)
    said = await moderator_answer(scene, "term import", {"file": only_zorb})
    assert said.startswith("Imported: 0 added, 0 changed, 1 removed"), said
    said = await moderator_answer(scene, "alias add", {"alias": "blorptastic", "term": "rag"})
    assert said.startswith("Added"), said

    for value, shown in (("zorb-engine", "Zorb Engine"), ("quux-store", None)):
        for _ in range(2):
            picked = await (
                await fake.select(scene.bob, listing, menu["custom_id"], [value])
            ).final_message()
            if shown is None:
                assert picked["content"] == GONE, picked
                assert not picked["embeds"], picked
            else:
                assert embed_of(picked)["title"] == shown, picked
    for label, custom_id in buttons(card).items():
        for _ in range(2):
            opened = await (await fake.click(scene.bob, card, custom_id)).final_message()
            assert embed_of(opened)["title"] == (
                "KV Cache" if label == "KV Cache" else "Zorb Engine"
            )
    suggest = await (
        await fake.click(scene.alice, miss, buttons(miss)["Suggest it"])
    ).final_message()
    assert "already in the glossary" in suggest["content"], suggest
    assert "Nothing was queued" in suggest["content"], suggest

    handle = await fake.slash(
        scene.moderator, "term remove", {"term": "Zorb Engine"}, channel=scene.channel
    )
    confirm = await handle.final_message()
    removed = await fake.click(scene.moderator, confirm, buttons(confirm)["Remove"])
    (done,) = await removed.followups()
    assert done["content"] == "Removed “Zorb Engine”.", done
    after = await (await fake.click(scene.bob, card, buttons(card)["Plain words"])).final_message()
    assert after["content"] == GONE, after
    after = await (await fake.click(scene.bob, card, buttons(card)["KV Cache"])).final_message()
    assert embed_of(after)["title"] == "KV Cache", after


async def test_explain_terms_on_messages_of_every_kind(scene: Scene, bot: GlossaryBot) -> None:
    """Holds (outsider74 C2): Explain terms on an embed alone, its forward, a message of only a
    code block, a 4,000-character Nitro message that names a term at its end, and a paste sent
    as message.txt alone: the terms each holds, or, for the file, a line naming it."""
    fake = scene.fake
    unhurried(fake)
    channel = scene.channel
    embedded = await fake.user_message(
        scene.bob, channel, "", embeds=[{"title": "RAG", "description": "about kv cache"}]
    )
    posts = {
        "embed": embedded,
        "forward": await fake.user_message(scene.alice, channel, "", forward_of=embedded),
        "code": await fake.user_message(scene.bob, channel, "```py\nrag = build_rag()\n```"),
        "nitro": await fake.user_message(scene.bob, channel, "lorem ipsum " * 330 + "kv cache"),
    }
    assert len(posts["nitro"]["content"]) <= 4000
    for kind, post in posts.items():
        listing = await (
            await fake.message_command(scene.alice, "Explain terms", post)
        ).final_message()
        assert listing["embeds"], (kind, listing)
        described = embed_of(listing)["description"]
        if kind != "code":
            assert "**KV Cache**" in described, (kind, listing)
        if kind != "nitro":
            assert "**Retrieval-Augmented Generation (RAG)**" in described, (kind, listing)
    pasted = fake.add_attachment("message.txt", "what is rag", channel=channel)
    post = await fake.user_message(scene.bob, channel, "", attachments=[pasted])
    told = await (await fake.message_command(scene.alice, "Explain terms", post)).final_message()
    assert "message.txt" in told["content"], told
    assert not told["embeds"], told


def test_an_alias_grown_in_place_is_found_by_its_core_too() -> None:
    """`aliases import` grows one set line by line (`ServerAliases.add`): "the quuxer" added
    so is found by "quuxer" as one compiled with the set is, its own key winning over another
    alias's core, and `by_key` (what Explain terms reads, and the count) holds only own keys."""
    positions = {"rag": 0, "lora": 1}
    grown = ServerAliases({}, positions)
    grown.add("the quuxer", "rag")
    grown.add("quuxer", "lora")
    compiled = ServerAliases({"the quuxer": "rag", "quuxer": "lora"}, positions)
    for aliases in (grown, compiled):
        assert aliases.found_by == {"thequuxer": 0, "quuxer": 1}
        assert aliases.by_key == {"thequuxer": 0, "quuxer": 1}
    grown = ServerAliases({"zorb": "lora"}, positions)
    assert grown.found_by is grown.by_key  # no alias with a core of its own: one map
    grown.add("the quuxer", "rag")
    assert grown.found_by == {"zorb": 1, "thequuxer": 0, "quuxer": 0}
    assert grown.by_key == {"zorb": 1, "thequuxer": 0}
    assert len(grown) == 2
