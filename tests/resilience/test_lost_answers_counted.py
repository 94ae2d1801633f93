"""A lost answer in the metrics (tests/outsider/PLAN.md, left32): counted as what it was."""

from __future__ import annotations

import asyncio

from bot import metrics
from bot.discord_app.app import GlossaryBot

from .conftest import Scene
from .helpers import warned

CALLBACK = "/interactions/{interaction_id}/{token}/callback"


def _count(outcome: str) -> float:
    value = metrics.REGISTRY.get_sample_value(
        "glossary_interactions_total", {"kind": "define", "outcome": outcome}
    )
    return 0.0 if value is None else value


async def test_a_private_answer_lost_past_the_deadline_is_counted_late_not_as_a_card(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A private /define rate limited past Discord's 3 s is lost (the log says so, the
    database counts no lookup), but `glossary_interactions_total` counted it as a `card`: the
    outcome was set when the reply was built, not when it was sent. Now `late`, the label the
    metric has for an answer Discord no longer takes."""
    fake = scene.fake
    cards, late = _count("card"), _count("late")
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost"):
        await fake.slash(
            scene.alice, "define", {"term": "kv cache", "private": True}, channel=scene.channel
        )
    # Counted when the interaction's task ends, just after the line is logged.
    async with asyncio.timeout(10):
        # The count is made by the task's done callback: no event of ours to await.
        while _count("late") == late and _count("card") == cards:  # noqa: ASYNC110
            await asyncio.sleep(0)  # a turn of the loop for the task to end
    assert (_count("card"), _count("late")) == (cards, late + 1)
