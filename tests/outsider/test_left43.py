"""Leftovers of the last sessions' product rounds (tests/outsider/PLAN.md, "Leftovers
(left43)"): the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.test_alias_permissions import PERMISSIONS_ROUTE
from tests.discord_app.test_suggestions import suggest_from_a_miss
from tests.discord_app.test_terms import TERM, open_add

from .conftest import Scene
from .test_round16 import NO_LONGER, demote


async def test_a_demoted_moderators_accept_opens_no_form(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 1 (outsider40 W6): `/term review` showed a suggestion; the moderator lost the role
    and pressed Accept…: the form opened, and only its save said they may no longer. Now the
    press is refused at once, privately, and the suggestion stays open."""
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    demote(scene)
    accepted = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    answer = await accepted.final_message()
    assert answer.get("content", "").startswith(NO_LONGER), answer
    assert is_ephemeral(answer), answer
    [still_open] = await store.open_suggestions(scene.guild.id)
    assert still_open.title == "zorblax"


async def test_a_demoted_moderators_edit_again_opens_no_form(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 1: a form refused (a related term that does not exist), its Edit again pressed after
    the moderator lost the role: the form opened again. Now the press is refused at once."""
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    submitted = await scene.fake.submit_modal(
        scene.moderator, opened, {**TERM, "related": "no such blorp"}
    )
    refused = await submitted.final_message()
    assert refused["content"].startswith("Nothing was saved"), refused
    demote(scene)
    again = await scene.fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
    answer = await again.final_message()
    assert answer.get("content", "").startswith(NO_LONGER), answer
    assert is_ephemeral(answer), answer
    assert await read_terms(store, scene.guild.id) == []


async def test_a_moderator_still_allowed_gets_the_form_from_edit_again(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 1 (the other side): not demoted, Edit again opens the form as before."""
    opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
    submitted = await scene.fake.submit_modal(
        scene.moderator, opened, {**TERM, "related": "no such blorp"}
    )
    refused = await submitted.final_message()
    again = await scene.fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
    assert (await again.response())["type"] == 9


async def test_accept_opens_its_form_in_time_while_the_permissions_read_hangs(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 1: the check before a form cannot acknowledge first (the form must be the answer,
    within Discord's 3 s): with the server's Integrations overrides slow to come (here 4 s, its
    read given 10 s), it decides by `/term`'s defaults after `FORM_WAIT` and the form opens; the
    fake refuses an answer past its 3 s."""
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    bot.command_access.fetch_timeout = 10.0
    scene.fake.faults.delay("GET", PERMISSIONS_ROUTE, 4.0, times=1)
    accepted = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    assert (await accepted.response())["type"] == 9
