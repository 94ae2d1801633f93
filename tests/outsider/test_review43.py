"""Attacks on this session's merges (tests/outsider/PLAN.md, "Review of this session's merges
(review43)"): the real bot (discord.py) against the fake Discord, the real CLI, real SQLite."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons
from tests.discord_app.test_alias_permissions import PERMISSIONS_ROUTE, Helpers, helpers
from tests.discord_app.test_suggestions import suggest_from_a_miss
from tests.fake_discord.command_permissions import override

from .conftest import Scene

__all__ = ["helpers"]  # the fixture, used here


async def test_accept_opens_the_form_for_a_role_the_overrides_allow_while_they_are_slow(
    scene: Scene, bot: GlossaryBot, store: Store, helpers: Helpers
) -> None:
    """Attack 7: a helper allowed `/term` only by an Integrations override (no Manage Server)
    presses Accept… while the overrides are slow to read (2 s, past `FORM_WAIT`): deciding by
    `/term`'s default refused them ("no longer allowed"), where the form opened before left43.
    Not known in time: the form opens, and its save asks again."""
    role, helper = helpers
    await scene.fake.set_command_permissions(scene.guild, "term", [override(role, True)])
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(helper, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    bot.command_access.forget(scene.guild.id)  # as after any change Discord reports
    bot.command_access.fetch_timeout = 10.0
    scene.fake.faults.delay("GET", PERMISSIONS_ROUTE, 2.0, times=1)
    accepted = await scene.fake.click(helper, shown, buttons(shown)["Accept…"])
    assert (await accepted.response())["type"] == 9


async def test_accept_with_the_overrides_read_dropped_decides_by_the_defaults(
    scene: Scene, bot: GlossaryBot, store: Store, helpers: Helpers
) -> None:
    """Attack 8: the overrides read's connection dropped (no answer at all): the press decides
    by `/term`'s defaults, as menus do while Discord does not answer; no error id."""
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    bot.command_access.forget(scene.guild.id)
    scene.fake.faults.drop_next("GET", PERMISSIONS_ROUTE, times=2)
    accepted = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    assert (await accepted.response())["type"] == 9
