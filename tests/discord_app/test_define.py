"""/define through the real discord.py client and the fake Discord."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.fake_discord import is_silent

from .conftest import Scene

EPHEMERAL = 64


async def test_define_answers_with_a_public_card(scene: Scene, bot: GlossaryBot) -> None:
    handle = await scene.fake.slash(scene.alice, "define", {"term": "kv cache"}, channel=scene.channel)
    message = await handle.final_message()
    [embed] = message["embeds"]
    assert embed["title"] == "KV Cache"
    assert not message.get("flags", 0) & EPHEMERAL
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["🚫 What it is not"].startswith("The cache stores keys and values, not attention")
    assert "As the Foundations glossary puts it" in fields
    labels = [c["label"] for row in message["components"] for c in row["components"]]
    assert "PagedAttention" in labels
    assert is_silent(scene.fake.sent_messages[-1].allowed_mentions)
