"""Review of outsider49 and review50 (tests/outsider/PLAN.md, "Review of outsider49 and
review50 (review51)"): their fixes attacked as a hostile, unlucky or busy server would, each
fix's test failing before it."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import buttons

from .conftest import Scene

SUGGESTED = {"definition": "What I think it is, in my words."}


async def test_a_dropped_member_fetch_after_a_refused_dm_still_answers_the_moderator(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O2 (outsider49): a DM refused, the bot asks Discord whether the member is still there;
    that request's connection dropped (aiohttp's ServerDisconnectedError, which discord.py lets
    through) and the moderator's Reject, written, answered "Something went wrong". The member
    is said to be untold, as for any other failure of that question."""
    fake = scene.fake
    opened = await fake.slash(scene.bob, "suggest", {"term": "zorblax"}, channel=scene.channel)
    await opened.response()
    sent = await fake.submit_modal(scene.bob, opened, SUGGESTED)
    assert (await sent.final_message())["content"].startswith("Thanks!")
    fake.fail_next("POST", "/channels/{channel_id}/messages", status=403)  # Discord's refusal
    fake.drop_next("GET", "/guilds/{guild_id}/members/{user_id}", times=2)  # aiohttp retries once
    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    said = (await rejected.final_message())["content"]
    assert "Rejected the suggestion; the member could not be told (DMs closed)." in said, said
