"""outsider74: the moderator's day, every command with hostile input, the member, driven as
users do (tests/outsider/PLAN.md, "outsider74"): what broke or held, through the real
discord.py client against the fake Discord."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define, embed_of

from .conftest import Scene
from .test_left47 import moderator_answer

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
