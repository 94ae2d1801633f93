"""race71's item 3 (tests/outsider/PLAN.md "race71", found by review71): a moderator command's
first response lost to Discord failing was counted as one of the moderator's refusals. The
in-process bot on the fake Discord (a real SQLite file)."""

from __future__ import annotations

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_review69_discord import CALLBACK, HANG


async def test_first_responses_lost_to_discord_cost_the_moderator_nothing(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """1 use a window, so 2 refusals. Discord fails (503, twice: past its 3 s) the
    acknowledgement of two `/alias remove`s in a row: the moderator saw nothing and nothing was
    written. Each gave its use back but counted as a refusal, so the moderator's next
    `/alias remove` was "going a bit fast" for the hour though they had done nothing. A lost
    response is Discord's, not theirs: it is not counted at all, and the removal is made."""
    fake = scene.fake
    mine = f" by {scene.moderator.id}: "
    async with start_bot(store, cooldown=(1, 3600.0)):
        added = await moderator_answer(scene, "alias add", {"alias": "blorp", "term": "rag"})
        for _ in range(2):
            fake.fail_next(*CALLBACK, status=503, times=2)
            async with warned(mine, HANG):
                await fake.slash(
                    scene.moderator, "alias remove", {"alias": "glimglom"}, channel=scene.channel
                )
            fake.faults.clear()  # a 503 left if the second try came too late to be made
            await fake.settle()
        fake.pop_violations()  # the lost responses' own (test_limits69 asserts them)
        removed = await moderator_answer(scene, "alias remove", {"alias": "blorp"})
        spent = await moderator_answer(scene, "alias remove", {"alias": "glimglom"})
    assert added.startswith("Added"), added
    assert removed.startswith("Removed"), removed
    assert spent.startswith("You're going a bit fast"), spent  # the one use is still one
