"""What a ninth round of outside testing found in search input through the real client against
the fake Discord (tests/outsider/PLAN.md, round 9; the pure search lines are in
tests/search/test_chat_names.py and test_properties.py)."""

from __future__ import annotations

import time

from bot.discord_app.app import GlossaryBot
from tests.resilience.helpers import add_alias

from .conftest import Scene
from .test_round7 import title_of

LORA = "LoRA & QLoRA"
# Chat words, stretched letters, typos of names, foreign fillers, emoji and markup: hostile text
HOSTILE = (
    "ngl tbh wat r attn heads lol whaaaaaaaaaaaaaaaat hola bonjour que es rag kya hai "
    "tokenzier dokcer perplexty 😀👩‍💻\u202e||**> `kv cache`**|| ok so, sorry dumb q but "
)


async def test_a_chat_word_alias_opens_its_card_in_a_question(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line S7: a server's aliases "mem", "ngl", "hola" for LoRA. `/define mem` opened
    LoRA, but "what is mem?" by `/define` or a mention did not (the chat reading wrote "memory");
    "ngl" and "hola" in a question found nothing (read as a filler and a greeting, dropped)."""
    fake = scene.fake
    for alias in ("mem", "ngl", "hola"):
        said = await add_alias(fake, scene.moderator, alias, "lora-qlora", scene.channel)
        assert said.startswith("Added"), said
    for query in ("what is mem?", "hey, what does ngl mean", "can u explain hola pls"):
        handle = await fake.slash(scene.alice, "define", {"term": query}, channel=scene.channel)
        assert title_of(await handle.final_message()) == LORA, query
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} {query}")
        reply = await fake.wait_for_channel_message(scene.channel)
        assert title_of(reply) == LORA, (query, reply.get("content"))
    handle = await fake.autocomplete(
        scene.alice, "define", {"term": "hola"}, focused="term", channel=scene.channel
    )
    choices = await handle.choices()
    assert choices, "no choices"
    assert choices[0]["value"] == "lora-qlora"


async def test_hostile_text_at_discord_s_lengths_is_answered(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Plan line S10: Explain terms on a 4,000-character message of hostile text, and a mention
    of 2,000: each answered (a listing of at most 25 terms; a reply), no error."""
    fake = scene.fake
    text = (HOSTILE * 60)[:4000]
    message = await fake.user_message(scene.alice, scene.channel, text)
    start = time.perf_counter()
    handle = await fake.message_command(scene.alice, "Explain terms", message)
    listing = await handle.final_message()
    took = time.perf_counter() - start
    embed = listing["embeds"][0]
    assert embed["title"].endswith("glossary terms in this message"), listing
    assert "went wrong" not in str(listing)
    print(f"Explain terms, 4,000 hostile characters: {took:.2f} s, {embed['title']}")
    await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} {text[:1970]}")
    reply = await fake.wait_for_channel_message(scene.channel)
    assert "went wrong" not in str(reply), reply
    print(f"mention of 2,000: {title_of(reply) or reply.get('content')}")
