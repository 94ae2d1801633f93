"""compare67 (issue #12 part 3): a comparison put to the bot in a mention answers its first side
with a card and offers the second first, as /define does: "`rag` vs `lora` which one?" got RAG's
card with nothing offered (the other side was read as "lora which one"). The real bot
(discord.py) against the fake Discord, which delivers the mention and the code spans as typed."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import buttons, embed_of

from .conftest import Scene
from .test_quote53 import _answer_to


async def test_a_mentioned_comparison_cards_the_first_and_offers_the_second(
    scene: Scene, bot: GlossaryBot
) -> None:
    me = scene.fake.bot.mention
    for said, title, offered in (
        (
            f"{me} `rag` vs `lora` which one?",
            "Retrieval-Augmented Generation (RAG)",
            "LoRA & QLoRA",
        ),
        (
            f"{me} rlaif vs rlhf, only difference is who gives the feedback?",
            "Reinforcement Learning from AI Feedback (RLAIF)",
            "Reinforcement Learning from Human Feedback",
        ),
    ):
        answer = await _answer_to(scene, said)
        assert answer["embeds"], (said, answer["content"])
        assert embed_of(answer)["title"] == title, (said, answer)
        assert list(buttons(answer))[:1] == [offered], (said, buttons(answer))
