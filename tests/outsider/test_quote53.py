"""quote53 (tests/outsider/PLAN.md, "quote53"): a mention under a Discord quote whose own words
ask about it ("> we serve it with vllm now", then "@Glossary what does that mean") reaches the
quote's name, as the search reads a thread reply (shape52); the member's own card still wins,
and words asking about something else get no card from the quote. The real bot (discord.py)
against the fake Discord, which delivers the quote's "> " lines in the content as typed."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import MENTION_HELP
from tests.discord_app.helpers import embed_of, selects

from .conftest import Scene
from .test_round29 import _next_answer


async def _answer_to(scene: Scene, said: str) -> dict:  # type: ignore[type-arg]
    asked = await scene.fake.user_message(scene.alice, scene.channel, said)
    replied_to, answer = await _next_answer(scene)
    assert replied_to == asked["id"], (said, answer)
    return answer  # type: ignore[no-any-return]


async def test_a_mention_asking_about_the_quote_above_it_gets_the_quotes_card(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Each was a miss or an offer: the own words alone name nothing (or only what the quote
    is compared with). A quote of several lines is one quote; the mention may come last."""
    me = scene.fake.bot.mention
    for said, title in (
        (f"> we serve it with vllm now\n{me} what does that mean", "vLLM"),
        (f"> you need cuda 12.1 for that wheel\n{me} what even is that", "CUDA"),
        (f"> ok so we tried lora\n> it was fine\n{me} what's that", "LoRA & QLoRA"),
        (f"> just use lora for it\n{me} wait is that the same as fine tuning?", "LoRA & QLoRA"),
        (f"> the model hallucinates a lot\nwhat does that mean {me}", "Hallucination"),
        # a quote of someone asking the bot is not asked again, but it is what "that" means
        (f"> {me} lora\n{me} explain that pls", "LoRA & QLoRA"),
    ):
        answer = await _answer_to(scene, said)
        assert answer["embeds"], (said, answer["content"])
        assert embed_of(answer)["title"] == title, (said, answer)


async def test_the_members_own_words_win_and_other_asks_get_no_card_from_the_quote(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The own words' card is the answer; words that do not ask about the quote (lunch, a
    thank-you, a question about something else) get what they got before: no card."""
    me = scene.fake.bot.mention
    quote = "> we serve it with vllm now"
    answer = await _answer_to(scene, f"{quote}\n{me} what is a kv cache")
    assert embed_of(answer)["title"] == "KV Cache", answer
    for own in ("anyone up for lunch?", "what's a good pizza place near the office", "lol"):
        answer = await _answer_to(scene, f"{quote}\n{me} {own}")
        assert not answer["embeds"], (own, answer)
    answer = await _answer_to(scene, f"{quote}\n{me} thanks!")
    assert answer["content"] == MENTION_HELP, answer


async def test_explain_terms_lists_a_quotes_terms_with_the_messages_own(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Explain terms lists every term a message shows, in order: a quote's too (unchanged)."""
    fake = scene.fake
    said = await fake.user_message(
        scene.bob, scene.channel, "> we serve it with vllm now\nwhat is a kv cache"
    )
    listing = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    assert [o["value"] for o in selects(listing)[0]["options"]] == ["vllm", "kv-cache"], listing
