"""outsider50: outsider round 33 (PLAN.md, "Outsider round 33 (outsider50)"). The real bot on
the fake Discord, as members and moderators of a server in its first months drive it."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.test_aliases import add as add_alias
from tests.discord_app.test_terms import add_term

from .conftest import Scene

SUGGESTED = {"definition": "What I think it is, in my words."}


async def _suggest(scene: Scene, member: object, name: str) -> None:
    fake = scene.fake
    opened = await fake.slash(member, "suggest", {"term": name}, channel=scene.channel)  # type: ignore[arg-type]
    await opened.response()
    sent = await fake.submit_modal(member, opened, SUGGESTED)  # type: ignore[arg-type]
    assert (await sent.final_message())["content"].startswith("Thanks!")


async def _reject_next(scene: Scene) -> str:
    fake = scene.fake
    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    return str((await rejected.final_message())["content"])


async def test_dms_discord_refuses_are_said_as_such_without_a_stand_in_refusal(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """O4: the fake delivered the bot's DMs to anyone, so tests stood in Discord's refusal with
    an injected 403. Now it refuses as Discord does (403, 50007) a member whose DMs are closed
    and one who left and shares no server with the bot; a member who left one server but shares
    another is still reached. The moderator's answer says which, and the decision stands."""
    fake = scene.fake
    scene.bob.dms_closed = True
    await _suggest(scene, scene.bob, "zorblax")
    said = await _reject_next(scene)
    assert "Rejected the suggestion; the member could not be told (DMs closed)." in said, said
    assert [user for user, _ in fake.refused_dms] == [scene.bob.id]

    scene.bob.dms_closed = False
    await _suggest(scene, scene.alice, "blorptex")
    del scene.guild.members[scene.alice.id]  # left; still in Elsewhere with the bot
    said = await _reject_next(scene)
    assert "Rejected the suggestion" in said, said
    assert "could not be told" not in said, said
    told = await fake.wait_for_channel_message(fake.dm_channel(scene.alice))
    assert "blorptex" in told["content"], told

    await _suggest(scene, scene.admin, "quuxnet")
    del scene.guild.members[scene.admin.id]  # left: no server in common with the bot
    said = await _reject_next(scene)
    assert "the member could not be told (no longer in this server)." in said, said
    assert [user for user, _ in fake.refused_dms] == [scene.bob.id, scene.admin.id]
    assert await store.open_suggestions(scene.guild.id) == []


async def test_a_server_renamed_while_the_bot_runs_keeps_everything_and_is_named_anew(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """O1: an admin renames the server (GUILD_UPDATE, which the fake now sends). Its terms,
    aliases and suggestions are kept by its id; a member told about their suggestion afterwards
    reads the server's new name, not the one it had when the bot connected."""
    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    assert "now opens **KV Cache**" in await add_alias(
        scene, scene.moderator, "kv stash", "kv-cache"
    )
    await _suggest(scene, scene.bob, "quuxnet")
    old_name = scene.guild.name
    scene.guild.name = "Reading Group"
    await fake.update_guild(scene.guild)
    for asked, title in (("zbx", "Zorblax"), ("kv stash", "KV Cache")):
        _, card = await define(fake, scene.alice, asked, scene.channel)
        assert embed_of(card)["title"] == title, card
    said = await _reject_next(scene)
    assert "could not be told" not in said, said
    told = (await fake.wait_for_channel_message(fake.dm_channel(scene.bob)))["content"]
    assert "“quuxnet” in Reading Group was not added" in told, told
    assert old_name not in told
    assert bot.get_guild(scene.guild.id).name == "Reading Group"  # type: ignore[union-attr]


async def test_a_term_named_as_another_servers_alias_stays_in_its_server(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O8: Glossary Lab writes a term "Zorblax" (other names zbx, nightly rerank); Elsewhere
    makes "zorblax" and "zbx" aliases of KV Cache. Each server opens its own card by each name,
    in `/define`, autocomplete and Explain terms; a DM opens neither server's."""
    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    for alias in ("zorblax", "zbx"):
        handle = await fake.slash(
            scene.other_moderator,
            "alias add",
            {"alias": alias, "term": "kv-cache"},
            channel=scene.other_channel,
        )
        said = (await handle.final_message())["content"]
        assert said == f"Added: “{alias}” now opens **KV Cache** in this server.", said
    for asked in ("zorblax", "zbx"):
        _, here = await define(fake, scene.alice, asked, scene.channel)
        assert embed_of(here)["title"] == "Zorblax", here
        _, there = await define(fake, scene.alice, asked, scene.other_channel)
        assert embed_of(there)["title"] == "KV Cache", there
        _, in_dm = await define(fake, scene.alice, asked, fake.dm_channel(scene.alice))
        assert is_ephemeral(in_dm), in_dm
        assert in_dm["content"].startswith("No entry"), in_dm
    for channel, shown in ((scene.channel, "Zorblax"), (scene.other_channel, None)):
        completing = await fake.autocomplete(
            scene.alice, "define", {"term": "zorbl"}, focused="term", channel=channel
        )
        names = [c["name"] for c in await completing.choices()]
        assert (shown in names) if shown else not any("Zorblax" in n for n in names), names
    for channel, title in ((scene.channel, "Zorblax"), (scene.other_channel, "KV Cache")):
        said = await fake.user_message(scene.alice, channel, "our zorblax ran late again")
        explained = await fake.message_command(scene.alice, "Explain terms", said)
        listed = str(embed_of(await explained.final_message()))
        assert title in listed, listed
        assert ({"Zorblax", "KV Cache"} - {title}).pop() not in listed, listed
