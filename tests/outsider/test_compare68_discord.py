"""compare68 (issue #12 part 3): comparisons written with a sign or as "X and Y, <question>" put to
the bot in a mention answer the first side with a card and offer the second first, as /define
does: "gguf/safetensors which one" and "rlhf > dpo?" got no card (the sign was dropped and the two
names read as one text), "latency and throughput, is one the inverse of the other" Latency's card
with nothing offered. The real bot (discord.py) against the fake Discord, which delivers the
mention (its "<@id>" holds a ">" of its own) and the text as typed."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import buttons, embed_of

from .conftest import Scene
from .test_quote53 import _answer_to


async def test_a_mentioned_comparison_with_a_sign_or_and_offers_the_second(
    scene: Scene, bot: GlossaryBot
) -> None:
    me = scene.fake.bot.mention
    for said, title, offered in (
        (f"{me} gguf/safetensors which one", "GGUF", "Safetensors"),
        (
            f"{me} rlhf > dpo?",
            "Reinforcement Learning from Human Feedback (RLHF)",
            "Direct Preference Optimization",
        ),
        (f"{me} latency and throughput, is one the inverse of the other", "Latency", "Throughput"),
    ):
        answer = await _answer_to(scene, said)
        assert answer["embeds"], (said, answer["content"])
        assert embed_of(answer)["title"] == title, (said, answer)
        assert list(buttons(answer))[:1] == [offered], (said, buttons(answer))
