"""review61 (tests/outsider/PLAN.md, "review61"): attacks on quote53. The real bot (discord.py)
against the fake Discord, which delivers a quote's "> " lines in the content as typed."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import embed_of

from .conftest import Scene
from .test_quote53 import _answer_to


async def test_a_question_pointing_at_the_quote_that_asks_no_meaning_gets_no_card(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Each got vLLM's card from the quote: a word pointing back ("it", "that") with a "?" or a
    question word was read as asking what the quote names, though these ask whether it is
    down, who set it up, or are not for the bot at all. They get what they got before quote53
    (no card); asks of what the quote's thing is still get its card."""
    me = scene.fake.bot.mention
    quote = "> we serve it with vllm now"
    for own in (
        "is it down?",
        "anyone up for it?",
        "can you do this",
        "did you try it?",
        "who set that up?",
        "why is it so slow?",
        "is that true?",
        "what time is it",
    ):
        answer = await _answer_to(scene, f"{quote}\n{me} {own}")
        assert not answer["embeds"], (own, answer)
    for own in (
        "what is that",
        "what the heck is this",
        "can you explain this",
        "is it the same as before?",
        "how does that work?",
    ):
        answer = await _answer_to(scene, f"{quote}\n{me} {own}")
        assert answer["embeds"], (own, answer["content"])
        assert embed_of(answer)["title"] == "vLLM", (own, answer)


async def test_a_quote_naming_two_terms_or_only_a_link_opens_no_card(
    scene: Scene, bot: GlossaryBot
) -> None:
    """"what's that" under a quote naming vLLM and KV Cache got vLLM's card (which one "that"
    is, nobody can tell); under a quote whose only hint is a link's path ("…/rag") it got RAG's,
    though a link names no term (Explain terms reads none in one). The quote's card answers
    only where the quote names that one entry; a quote naming one still gets it."""
    me = scene.fake.bot.mention
    for said in (
        f"> we use vllm with a kv cache\n{me} what's that",
        f"> see https://example.com/rag for it\n{me} what is that",
    ):
        answer = await _answer_to(scene, said)
        assert not answer["embeds"], (said, answer)
    answer = await _answer_to(scene, f"> we put rag behind the chat\n{me} what is that")
    assert embed_of(answer)["title"] == "Retrieval-Augmented Generation (RAG)", answer
