"""What a twenty-first round of outside testing found: Discord's own text in a member's hand
(custom emoji, masked links, code fences) through every door the bot has, and a self-hoster's
container and its env file (tests/outsider/PLAN.md, round 21)."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot

from .conftest import Scene


async def explained(scene: Scene, text: str) -> str:
    """What "Explain terms" lists for a message `text` of bob's, as alice sees it."""
    fake = scene.fake
    said = await fake.user_message(scene.bob, scene.channel, text)
    answer = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    embeds = answer.get("embeds") or []
    return str(embeds[0]["description"]) if embeds else str(answer.get("content"))


async def test_explain_terms_lists_only_what_a_reader_sees(scene: Scene, bot: GlossaryBot) -> None:
    """Plan lines O7, O9, O10: Discord shows a custom emoji (`<:rag:1…>`, `<a:kvcache:2…>`) as
    a picture, a masked link (`[read this](https://…/kv-cache)`) as its text, and a code block
    without its language line (```` ```rag ````). Explain terms listed RAG and KV Cache for a
    message of two emoji, LoRA for a lone `<:LoRA:…>`, KV Cache for a link's hidden target and
    RAG for a fence's language: terms nobody reading the message could see. Now the markup a
    reader does not see is blanked first, as `/define` blanks it; what they see is still read."""
    for hidden in (
        "nice <:rag:111111111111111111> and <a:kvcache:222222222222222222>",
        "<:LoRA:123456789012345678>",
        "[read this](https://x.example/kv-cache) please",
        "```rag\nprint(1)\n```",
    ):
        assert await explained(scene, hidden) == "I found no glossary terms in that message.", (
            hidden
        )
    seen = await explained(scene, "[rag](https://x.example) and `kv cache` <:lora:1234567890>")
    assert "Retrieval-Augmented Generation" in seen, seen
    assert "KV Cache" in seen, seen
    assert "LoRA" not in seen, seen
