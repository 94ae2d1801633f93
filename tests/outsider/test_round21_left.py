"""Known product faults left by earlier rounds (task left21), each through the bot against the
fake Discord or the real command line, on real SQLite files."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round16_left import CALLBACK

UNKNOWN = "qq zorblaxing"


async def _missed(bot: GlossaryBot, scene: Scene) -> int:
    store = bot.state.store
    assert store is not None
    await scene.fake.settle()  # a miss is counted once its send returned
    return sum(m.count for m in await store.top_misses(scene.guild.id) if m.query == UNKNOWN)


async def test_a_public_define_whose_miss_is_lost_to_the_deadline_counts_no_miss(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A public /define's "no entry" is private to the asker: past Discord's 3 s it cannot be
    posted in the channel and is lost. Where the bot has Embed Links it was counted as a missed
    search all the same (recorded with the reply, before its send), where a private /define
    counted nothing. Now a miss is counted once its answer is sent, as a card is, whether the
    answer is a reply or follows a defer."""
    fake = scene.fake
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost"):
        await fake.slash(scene.alice, "define", {"term": UNKNOWN}, channel=scene.channel)
    assert await _missed(bot, scene) == 0
    bot.state.servers.forget(scene.guild.id)  # /define reads the aliases again: it defers
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost"):
        await fake.slash(scene.alice, "define", {"term": UNKNOWN}, channel=scene.channel)
    assert await _missed(bot, scene) == 0
    _, said = await define(fake, scene.alice, UNKNOWN, scene.channel)
    assert said["content"].startswith("No entry for"), said
    assert await _missed(bot, scene) == 1
