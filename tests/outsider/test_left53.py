"""left53 (tests/outsider/PLAN.md, "Leftovers (left53)"): outsider50's, review53's and
review54's "found and left", each fix's test failing before it."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot

from .conftest import Scene
from .test_outsider49 import rejected_after


async def test_a_dm_refused_by_rate_limits_is_said_rate_limited_not_unanswered(
    scene: Scene, bot: GlossaryBot
) -> None:
    """outsider50's leftover: Discord answered the member's DM five times with its 429 (its
    body, headers and Via, as `fake.rate_limit` serves past a bucket), discord.py's retries
    were spent and it raised; the moderator read "Discord did not answer", where Discord did
    answer. Now the answer says the bot was rate-limited."""
    fake = scene.fake
    dm = "POST", "/channels/{channel_id}/messages"

    said = await rejected_after(scene, lambda: fake.fail_next(*dm, status=429, times=5))
    assert (
        "Rejected the suggestion; the member could not be told (Discord rate-limited the bot)."
        in (said)
    ), said
    assert [f.status for f in fake.faults.served if f.path == dm[1]] == [429] * 5
    assert "did not answer" not in said
