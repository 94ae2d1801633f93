"""Leftovers (tests/outsider/PLAN.md, "Leftovers (left40)"): a mention's aside in words, ...

Through the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


async def _answer(scene: Scene, said: str) -> dict[str, object]:
    await scene.fake.user_message(scene.alice, scene.channel, said)
    return await scene.fake.wait_for_channel_message(scene.channel)


def _title(answer: dict[str, object]) -> str | None:
    embeds = answer["embeds"]
    assert isinstance(embeds, list)
    return embeds[0]["title"] if embeds else None


async def test_a_mention_with_an_aside_in_words_answers_the_term(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Leftover 1: "@Glossary rag, bob asked" and "@Glossary rag for bob" were searched whole
    and offered "Did you mean Retrieval-Augmented Generation?" where "@Glossary rag" opens its
    card: the words after the term (who asked, for whom, "pls") are said about the question, not
    in it. Now they are set aside when the whole finds no card and the term alone opens the card
    the whole offered first. A question about the term ("rag, how does it work") is read whole
    as before, and "embeddings for search" keeps its own offers (the words after "for" there are
    what is asked). With another member named first, "thanks!" after the bot's mention is no
    question (review38): the words before it are."""
    fake = scene.fake
    me, bob = fake.bot.mention, scene.bob.mention
    for said in (
        f"{me} rag, bob asked",
        f"{me} rag for bob",
        f"{me} rag pls",
        f"{me} what's rag, asking for a friend",
        f"{me} rag? bob asked",
        f"{me} rag for bob pls",
        f"{me} rag for my team",
        f"{me} moe, bob is asking",
        f"{me} rag, how does it work",
        f"{bob} what's rag {me} thanks!",
    ):
        answer = await _answer(scene, said)
        expected = "Mixture of Experts (MoE)" if "moe" in said else RAG
        assert _title(answer) == expected, (said, answer["content"])
    # "for" then what is asked about: the whole's offers, not Embeddings' card
    answer = await _answer(scene, f"{me} embeddings for search")
    assert _title(answer) is None, answer
    assert str(answer["content"]).startswith("Did you mean"), answer["content"]
    # a miss with an aside echoes the member's whole words, as before
    answer = await _answer(scene, f"{me} zorbly frimble, bob asked")
    assert str(answer["content"]).startswith("No entry for “zorbly frimble, bob asked”"), answer
