"""left70 (PLAN.md, "left70"): the card a question naming its entry opens says, in Discord, that
the name written in it found it (review70 saw "matched … by its description" under a mention)."""

from __future__ import annotations

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of, footer

from .conftest import Scene

ASKED = "when my loss spikes after warmup, what is gradient clipping?"


async def test_a_mention_and_define_naming_the_entry_say_the_name_found_it(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    fake = scene.fake
    async with start_bot(store):
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {ASKED}")
        card = await fake.wait_for_channel_message(scene.channel)
        _, defined = await define(fake, scene.bob, ASKED, scene.channel)
    for message in (card, defined):
        assert embed_of(message)["title"] == "Gradient Clipping", message
        # the name written, not the whole question (product73)
        assert 'matched "gradient clipping" by the name written in it' in footer(message), message
