"""Each interaction kind round-trips through the real discord.py client and the fake."""

from __future__ import annotations

import math

import pytest

from tests.fake_discord import InteractionRefused, is_silent, run_client

from .conftest import Scene
from .tiny_bot import TinyBot


async def test_login_identify_and_sync(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    assert bot.user is not None
    assert bot.user.id == fake.bot.id
    assert ("GET", "/api/v10/users/@me") in fake.requests
    assert fake.gateway.identify_count == 1
    assert fake.gateway.connections == [{"v": "10", "encoding": "json", "compress": "zlib-stream"}]
    assert fake.gateway.heartbeat_count >= 1
    assert math.isfinite(bot.latency)
    commands = {c["name"]: c for c in fake.commands()}
    assert {"define", "slow", "mod", "alias", "feedback", "Define this"} <= set(commands)
    assert commands["mod"]["default_member_permissions"] == str(1 << 5)
    assert commands["Define this"]["type"] == 3
    await bot.wait_until_ready()
    assert bot.get_guild(scene.guild.id) is not None  # GUILD_CREATE reached the cache


async def test_slash_command_answers_with_embed_and_view(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(
        scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
    )
    body = await handle.response()
    assert body["type"] == 4
    message = await handle.final_message()
    assert message["embeds"][0]["title"] == "kv cache"
    assert message["components"][0]["components"][0]["custom_id"] == "related:attention"
    assert handle.response_latency is not None
    assert handle.response_latency < 3
    sent = scene.fake.sent_messages[-1]
    assert sent.kind == "interaction_response"
    assert is_silent(sent.allowed_mentions)


async def test_autocomplete_returns_choices(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.autocomplete(
        scene.alice, "define", {"term": "kv"}, focused="term", channel=scene.channel
    )
    assert [c["value"] for c in await handle.choices()] == ["kv cache", "kv store"]


async def test_button_updates_the_message_in_place(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    card = await (
        await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    ).final_message()
    click = await fake.click(scene.alice, card, "related:attention")
    assert (await click.response())["type"] == 7
    updated = await click.final_message()
    assert updated["id"] == card["id"]
    assert updated["embeds"][0]["title"] == "attention"


async def test_deferred_update_then_edit_of_the_component_message(
    scene: Scene, bot: TinyBot
) -> None:
    fake = scene.fake
    card = await (
        await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    ).final_message()
    click = await fake.click(scene.alice, card, "refresh")
    assert (await click.response())["type"] == 6
    updated = await click.final_message()
    assert updated["id"] == card["id"]
    assert updated["content"] == "refreshed"


async def test_original_response_fetch_edit_and_followup_delete(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    handle = await fake.slash(scene.alice, "manage", channel=scene.channel)
    await handle.wait_for(lambda h: len(h.records) == 6 or None)
    assert [(r.kind, r.status) for r in handle.records] == [
        ("callback", 200),
        ("get_original", 200),
        ("edit_original", 200),
        ("followup", 200),
        ("edit_followup", 200),
        ("delete_followup", 204),
    ]
    assert (await handle.final_message())["content"] == "first, edited"
    [note_id] = handle.followup_ids
    assert note_id in fake.store.deleted


async def test_select_answers_with_a_new_message(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    card = await (
        await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
    ).final_message()
    pick = await fake.select(scene.alice, card, "pick", ["autoencoder"])
    assert (await pick.final_message())["content"] == "picked autoencoder"


async def test_user_select_and_user_context_menu(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    menu = await (
        await fake.slash(scene.alice, "pick_member", channel=scene.channel)
    ).final_message()
    picked = await fake.select(scene.alice, menu, "who", [scene.moderator])
    assert (await picked.final_message())["content"] == "who: mo"
    who = await fake.user_command(
        scene.alice, "Who is this", scene.moderator, channel=scene.channel
    )
    assert (await who.final_message())["content"] == "that is mo"


async def test_message_context_menu(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    said = await fake.user_message(scene.alice, scene.channel, "what is a tokenizer")
    handle = await fake.message_command(scene.alice, "Define this", said)
    message = await handle.final_message()
    assert message["content"] == "defining: what is a tokenizer"
    assert message["flags"] & 64  # ephemeral


async def test_deferred_response_then_edit_and_followup(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(scene.alice, "slow", {"term": "rope"}, channel=scene.channel)
    assert (await handle.response())["type"] == 5
    bot.slow_release.set()
    assert (await handle.final_message())["content"] == "slow rope"
    [extra] = await handle.followups()
    assert extra["content"] == "and one more thing"
    assert [r.kind for r in handle.records] == ["callback", "edit_original", "followup"]
    assert all(r.status < 300 for r in handle.records)


async def test_followup_after_deleting_the_deferred_original(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(scene.alice, "private_answer", channel=scene.channel)
    message = await handle.final_message()
    assert message["content"] == "only for you"
    assert message["flags"] & 64  # a new, ephemeral message: the deleted one is not reused
    assert int(message["id"]) != handle.original_message_id


async def test_modal_round_trip(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    opened = await fake.slash(scene.alice, "feedback", channel=scene.channel)
    assert (await opened.response())["type"] == 9
    submitted = await fake.submit_modal(scene.alice, opened, {"note": "great bot"})
    assert (await submitted.final_message())["content"] == "thanks: great bot"


async def test_subcommand_with_typed_options(scene: Scene, bot: TinyBot) -> None:
    handle = await scene.fake.slash(
        scene.alice,
        "alias add",
        {"alias": "kvc", "target": "kv cache", "weight": 3},
        channel=scene.channel,
    )
    assert (await handle.final_message())["content"] == "kvc -> kv cache (3)"


async def test_slash_command_in_a_dm(scene: Scene, bot: TinyBot) -> None:
    dm = scene.fake.dm_channel(scene.alice)
    handle = await scene.fake.slash(scene.alice, "define", {"term": "attention"}, channel=dm)
    message = await handle.final_message()
    assert message["channel_id"] == str(dm.id)
    assert "guild_id" not in message


async def test_mention_gets_a_quiet_reply(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    said = await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} kv cache?")
    reply = await fake.wait_for_channel_message(scene.channel)
    assert reply["message_reference"]["message_id"] == said["id"]
    assert reply["content"].endswith("kv cache?")  # mentioned, so content reaches the bot
    sent = fake.sent_messages[-1]
    assert is_silent(sent.allowed_mentions)
    assert sent.pings == []


async def test_default_member_permissions_hide_the_command(scene: Scene, bot: TinyBot) -> None:
    fake = scene.fake
    refused = await fake.slash(scene.alice, "mod", channel=scene.channel)
    assert refused.refused
    with pytest.raises(InteractionRefused, match="default_member_permissions"):
        await refused.response()
    for user in (scene.moderator, scene.owner):
        allowed = await fake.slash(user, "mod", channel=scene.channel)
        assert (await allowed.final_message())["content"] == "mod ok"


async def test_guild_command_sync(scene: Scene) -> None:
    fake = scene.fake
    async with run_client(TinyBot(sync_guild=scene.guild.id), fake, guild_id=scene.guild.id):
        assert fake.commands() == []
        assert "define" in [c["name"] for c in fake.commands(scene.guild.id)]
        handle = await fake.slash(scene.alice, "define", {"term": "kv"}, channel=scene.channel)
        assert handle.payload["data"]["guild_id"] == str(scene.guild.id)
        assert (await handle.final_message())["embeds"][0]["title"] == "kv"
        dm = fake.dm_channel(scene.alice)
        with pytest.raises(LookupError, match="no registered command"):
            await fake.slash(scene.alice, "define", {"term": "kv"}, channel=dm)
