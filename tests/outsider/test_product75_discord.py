"""product75 (tests/outsider/PLAN.md, "product75"): a server's names read the way search reads
a question, as members and moderators meet them in Discord."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define, embed_of
from tests.resilience.helpers import unhurried

from .conftest import Scene
from .test_left47 import moderator_answer

THE_ZORBLER = """
[[entries]]
title = "Zorbler Engine"
definition = "The lab's engine that turns checkpoints into evaluation notes."
category = "Fundamentals"
aliases = ["the zorbler"]
"""


async def test_a_server_term_s_other_name_with_the_opens_its_card_without_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: a server term's other name "the zorbler" opened the card typed whole
    only; "zorbler", "what is the zorbler?" (search reads the question's "the" away) and a
    mention asking it answered "Did you mean" (the name without its article was kept as a
    weak part of the term), where an alias or a title so written opens the card. The three
    are read by one reading now (`query.read_otherwise`)."""
    fake = scene.fake
    file = fake.add_attachment("terms.toml", THE_ZORBLER)
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    for asked in ("the zorbler", "zorbler", "what is the zorbler?", "Zorbler"):
        _, answer = await define(fake, scene.alice, asked, scene.channel)
        assert answer["embeds"], (asked, answer)
        assert embed_of(answer)["title"] == "Zorbler Engine", (asked, answer)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is zorbler?")
    posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "Zorbler Engine", posted


async def test_explain_terms_finds_an_alias_written_without_its_the(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: with the alias "the quuxer" for RAG (which `/define quuxer` opens since
    outsider74), Explain terms on "we use quuxer daily" listed nothing: mentions were read
    against the aliases' own keys only. A server term's other name so written is found too."""
    fake = scene.fake
    unhurried(fake)
    said = await moderator_answer(scene, "alias add", {"alias": "the quuxer", "term": "rag"})
    assert said.startswith("Added"), said
    file = fake.add_attachment("terms.toml", THE_ZORBLER)
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    for text, shown in (
        ("we use quuxer daily", "**Retrieval-Augmented Generation (RAG)**"),
        ("we use the quuxer daily", "**Retrieval-Augmented Generation (RAG)**"),
        ("the zorbler broke again", "**Zorbler Engine**"),
        ("ask zorbler about it", "**Zorbler Engine**"),
    ):
        posted = await fake.user_message(scene.bob, scene.channel, text)
        listing = await (
            await fake.message_command(scene.alice, "Explain terms", posted)
        ).final_message()
        assert listing["embeds"], (text, listing)
        assert shown in embed_of(listing)["description"], (text, listing)
