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
