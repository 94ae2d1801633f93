"""review61 (tests/outsider/PLAN.md, "review61"): attacks on quote53. The real bot (discord.py)
against the fake Discord, which delivers a quote's "> " lines in the content as typed."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import embed_of

from .conftest import Scene
from .test_quote53 import _answer_to
from .test_round29 import _next_answer


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
        "what does it cost?",
        "what is it doing?",
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
    """A "what's that" under a quote naming vLLM and KV Cache got vLLM's card (which one "that"
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


async def test_a_reply_quoting_the_bots_own_card_does_not_get_that_card_again(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A reply to the bot's card quoting its words, "what does that mean", got the same card
    posted again (before quote53, nothing: a reply to the bot is answered only for a card).
    The quote is the card's: its card again tells nothing new. A quoted word naming another
    entry still opens that one."""
    fake, me = scene.fake, scene.fake.bot.mention
    await fake.user_message(scene.alice, scene.channel, f"{me} vllm")
    _, card = await _next_answer(scene)
    assert embed_of(card)["title"] == "vLLM", card
    await fake.user_message(
        scene.alice,
        scene.channel,
        "> vLLM is an open-source serving engine\nwhat does that mean",
        reply_to=card,
    )
    asked = await fake.user_message(
        scene.alice,
        scene.channel,
        f"> it pioneered PagedAttention\n{me} what's that",
        reply_to=card,
    )
    replied_to, answer = await _next_answer(scene)
    assert replied_to == asked["id"], answer  # the first was not answered
    assert embed_of(answer)["title"] == "PagedAttention", answer
