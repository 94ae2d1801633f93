"""review67 (PLAN.md, "Attacks on last session's changes (review67)"): last session's moderator
limits and forms attacked through the fake Discord as moderators meet them; each test failing on
main 2e0bd456 first."""

from __future__ import annotations

import asyncio

from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons
from tests.discord_app.test_suggestions import IDEA

from .conftest import Scene
from .test_round7 import logged

HANG = 60.0  # a bound on a hang only
WEBHOOK = "/webhooks/{application_id}/{token}"
ANSWERS = (("POST", WEBHOOK), ("PATCH", WEBHOOK + "/messages/{message_id}"))


async def test_a_reject_whose_answer_discord_fails_gives_its_use_back_when_it_closed_nothing(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """A Reject of a suggestion another moderator decided meanwhile closes nothing and gives its
    use back (left64), but only after its answer was sent: Discord refusing that answer (404,
    the interaction gone)
    kept the use of a Reject that wrote nothing, and with 1 use a window the next Reject, of a
    suggestion still open, was "going a bit fast"."""
    fake = scene.fake
    for member, title in ((scene.alice, "zorblax"), (scene.bob, "plimwort")):
        await store.add_suggestion(scene.guild.id, member.id, title, IDEA)
    [zorblax, _] = await store.open_suggestions(scene.guild.id)
    async with start_bot(store, cooldown=(1, 3600.0)):
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        await store.decide_suggestion(  # by another moderator, meanwhile
            scene.guild.id, zorblax.id, accepted=False, actor_id=scene.admin.id
        )
        for method, path in ANSWERS:  # the interaction's token expired (Unknown Webhook)
            fake.fail_next(method, path, status=404)
        lost = asyncio.ensure_future(logged("'gb:sugg:no:", within=HANG))
        await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        await lost  # its answer failed: the error logged
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        clicked = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
        said = (await clicked.final_message())["content"]
        assert said.startswith("Rejected the suggestion"), said
