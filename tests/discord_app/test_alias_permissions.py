"""The /stats menu that turns a miss into an alias asks what `/alias` asks, overrides included:
what server admins set in Server Settings > Integrations, as the fake Discord applies them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.stats import NOT_ALLOWED
from bot.storage import AuditAction, Store
from tests.fake_discord import FakeRole, FakeUser
from tests.fake_discord.command_permissions import override

from .conftest import Scene, StartBot
from .helpers import is_ephemeral, selects

PERMISSIONS_ROUTE = "/applications/{application_id}/guilds/{guild_id}/commands/permissions"


async def pick_the_miss(scene: Scene, user: FakeUser) -> dict[str, object]:
    """``user`` opens /stats and picks the listed miss; the answer they see."""
    handle = await scene.fake.slash(user, "stats", channel=scene.channel)
    message = await handle.final_message()
    [menu] = selects(message)
    picked = await scene.fake.select(
        user, message, menu["custom_id"], [menu["options"][0]["value"]]
    )
    answer = await picked.final_message()
    assert is_ephemeral(answer)
    return answer


Helpers = tuple[FakeRole, FakeUser]


@pytest.fixture
def helpers(scene: Scene) -> Helpers:
    """A role without Manage Server, and a member who has it (there before the bot connects:
    the fake sends no GUILD_ROLE_CREATE)."""
    role = scene.guild.add_role("Helpers")
    helper = scene.fake.add_user("hal")
    scene.guild.add_member(helper, roles=[role])
    return role, helper


@pytest.fixture
async def bot(helpers: Helpers, start_bot: StartBot, store: Store) -> AsyncIterator[GlossaryBot]:
    async with start_bot(store) as client:
        yield client


def permission_fetches(scene: Scene) -> int:
    return sum(path.endswith("/commands/permissions") for _, path in scene.fake.requests)


async def test_a_moderator_denied_alias_cannot_use_the_menu(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    store.record_miss(scene.guild.id, "kv chache")
    await scene.fake.set_command_permissions(
        scene.guild, "alias", [override(scene.moderator, False)]
    )
    # Discord keeps /alias from them (they still have Manage Server, and /stats)...
    assert (await scene.fake.slash(scene.moderator, "alias list", channel=scene.channel)).refused
    # ...and so does the menu.
    answer = await pick_the_miss(scene, scene.moderator)
    assert answer["content"] == NOT_ALLOWED
    assert await store.list_aliases(scene.guild.id) == []
    assert await store.audit_log(scene.guild.id) == []


async def test_a_role_granted_alias_can_use_the_menu(
    scene: Scene, bot: GlossaryBot, store: Store, helpers: Helpers
) -> None:
    role, helper = helpers
    store.record_miss(scene.guild.id, "kv chache")
    assert (await scene.fake.slash(helper, "stats", channel=scene.channel)).refused
    for command in ("stats", "alias"):
        await scene.fake.set_command_permissions(scene.guild, command, [override(role, True)])

    answer = await pick_the_miss(scene, helper)
    assert answer["content"] == "Added: “kv chache” now opens **KV Cache** in this server."
    [entry] = await store.audit_log(scene.guild.id)
    assert (entry.actor_id, entry.action, entry.alias_key) == (
        helper.id,
        AuditAction.ALIAS_ADD,
        "kv chache",
    )
    assert entry.after == "kv-cache"


async def test_overrides_are_read_once_and_again_when_discord_says_they_changed(
    scene: Scene, bot: GlossaryBot, store: Store, helpers: Helpers
) -> None:
    role, helper = helpers
    for miss in ("kv chache", "kv cahce", "kv cashe"):
        store.record_miss(scene.guild.id, miss)
    for command in ("stats", "alias"):
        await scene.fake.set_command_permissions(scene.guild, command, [override(role, True)])
    before = permission_fetches(scene)
    assert (await pick_the_miss(scene, helper))["content"].startswith("Added")
    assert (await pick_the_miss(scene, helper))["content"].startswith("Added")
    assert permission_fetches(scene) == before + 1  # the second pick used what was read

    # An admin takes /alias back from the helper (keeping /stats): the next pick knows.
    await scene.fake.set_command_permissions(
        scene.guild, "alias", [override(role, True), override(helper, False)]
    )
    assert (await pick_the_miss(scene, helper))["content"] == NOT_ALLOWED
    assert permission_fetches(scene) == before + 2
    assert len(await store.list_aliases(scene.guild.id)) == 2


async def test_unreadable_overrides_fall_back_to_manage_server_and_say_so_once(
    scene: Scene,
    bot: GlossaryBot,
    store: Store,
    helpers: Helpers,
    caplog: pytest.LogCaptureFixture,
) -> None:
    role, helper = helpers
    for miss in ("kv chache", "kv cahce", "kv cashe"):
        store.record_miss(scene.guild.id, miss)
    await scene.fake.set_command_permissions(scene.guild, "stats", [override(role, True)])
    await scene.fake.set_command_permissions(scene.guild, "alias", [override(role, True)])
    bot.command_access.fetch_timeout = 0.2
    with caplog.at_level(logging.WARNING, logger="bot.discord_app.command_permissions"):
        # Granted /alias, but without Manage Server: refused while the grant cannot be read,
        # whether Discord refuses to tell or does not answer in time.
        scene.fake.fail_next("GET", PERMISSIONS_ROUTE, status=403)
        assert (await pick_the_miss(scene, helper))["content"] == NOT_ALLOWED
        scene.fake.delay("GET", PERMISSIONS_ROUTE, 1.0, times=1)
        assert (await pick_the_miss(scene, helper))["content"] == NOT_ALLOWED
        assert await store.list_aliases(scene.guild.id) == []
        # A moderator denied /alias is let through meanwhile: Manage Server is all it asks.
        await scene.fake.set_command_permissions(
            scene.guild, "alias", [override(role, True), override(scene.moderator, False)]
        )
        scene.fake.fail_next("GET", PERMISSIONS_ROUTE, status=403)
        assert (await pick_the_miss(scene, scene.moderator))["content"].startswith("Added")
    warnings = [r for r in caplog.records if "command permissions" in r.getMessage()]
    assert len(warnings) == 1
    # Readable again: the grant counts.
    assert (await pick_the_miss(scene, helper))["content"].startswith("Added")
    # Changed and unreadable once more: a new streak, said again.
    with caplog.at_level(logging.WARNING, logger="bot.discord_app.command_permissions"):
        await scene.fake.set_command_permissions(scene.guild, "alias", [override(role, True)])
        scene.fake.fail_next("GET", PERMISSIONS_ROUTE, status=403)
        assert (await pick_the_miss(scene, helper))["content"] == NOT_ALLOWED
    warnings = [r for r in caplog.records if "command permissions" in r.getMessage()]
    assert len(warnings) == 2


async def test_picks_at_once_share_one_read(
    scene: Scene, bot: GlossaryBot, store: Store, helpers: Helpers
) -> None:
    role, helper = helpers
    fake = scene.fake
    store.record_miss(scene.guild.id, "kv chache")
    for command in ("stats", "alias"):
        await fake.set_command_permissions(scene.guild, command, [override(role, True)])
    message = await (await fake.slash(helper, "stats", channel=scene.channel)).final_message()
    [menu] = selects(message)
    value = menu["options"][0]["value"]
    before = permission_fetches(scene)
    fake.delay("GET", PERMISSIONS_ROUTE, 0.5, times=1)  # the picks arrive while it is read
    fake.settle_before_actions = False
    picks = await asyncio.gather(
        *(fake.select(helper, message, menu["custom_id"], [value]) for _ in range(6))
    )
    answers = sorted([str((await p.final_message())["content"]) for p in picks])
    assert permission_fetches(scene) == before + 1
    assert answers[0].startswith("Added")
    assert all("already opens" in a for a in answers[1:]), answers
    assert len(await store.list_aliases(scene.guild.id)) == 1
