"""User text the bot repeats in public (issue 10, item 7): no link to click or unfurl, no
direction or zero-width tricks, embeds suppressed on every message that quotes a user."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot

from .conftest import Scene
from .helpers import define, is_ephemeral

SUPPRESS_EMBEDS = 1 << 2
BAIT = "https://evil.example/free-nitro"


def check_quoted(message: dict[str, object]) -> str:
    content = str(message["content"])
    assert int(str(message.get("flags") or 0)) & SUPPRESS_EMBEDS
    assert "://" not in content
    assert "evil.example" not in content
    assert not any(ch in content for ch in "\u202e\u202d\u2066\u2067\u200b\u200d\ufeff")
    return content


async def test_a_suggestion_in_public_neither_links_nor_unfurls(
    scene: Scene, bot: GlossaryBot
) -> None:
    # Two terms: an offer with or without the link (a term and a link alone opens its card).
    _, message = await define(scene.fake, scene.alice, f"rag lora {BAIT}", scene.channel)
    assert not is_ephemeral(message)  # "did you mean" is public: the case that mattered
    content = check_quoted(message)
    assert content.startswith("Did you mean one of these for “rag lora https[:]//evil[.]example")


async def test_bidi_and_zero_width_controls_are_not_echoed(scene: Scene, bot: GlossaryBot) -> None:
    _, message = await define(
        scene.fake, scene.alice, "zz\u202ezzqq\u200bqq\u2066xx", scene.channel
    )
    content = check_quoted(message)
    assert "“zzzzqqqqxx”" in content


async def test_a_mention_that_finds_nothing_quotes_safely(scene: Scene, bot: GlossaryBot) -> None:
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} zzqq {BAIT}")
    reply = await fake.wait_for_channel_message(scene.channel)
    check_quoted(reply)
    assert fake.sent_messages[-1].pings == []
