"""Known faults left by outside rounds 19-21 (task left23), each through the bot against the fake
Discord or the real command line, on real SQLite files."""

from __future__ import annotations

from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from tests.discord_app.helpers import buttons, selects
from tests.discord_app.term_commands import add_term
from tests.discord_app.test_term_log import write
from tests.fake_discord.models import SEND_MESSAGES, VIEW_CHANNEL
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round15 import _cli, exported_after_a_rename


async def test_the_stats_menu_says_its_term_was_removed_since_the_list_was_made(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line V36: `/stats` offers "zorblx" → Zorblax; another moderator removes Zorblax; the
    pick answered `/alias add`'s "I could not find the term “zorblax”. Pick one from the list.",
    an id the moderator never typed and a list the menu does not have. Now it says the term is
    gone from the glossary, nothing was added, and `/stats` makes a fresh list. left75: "this
    server's glossary", as a card's button says of a removed term (`replies.gone_from`, the one
    reading; it said "the glossary" before)."""
    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    store.record_miss(scene.guild.id, "zorblx")
    shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await shown.final_message()
    [menu] = selects(message)
    [option] = menu["options"]
    assert option["label"] == "“zorblx” → Zorblax"

    removing = await fake.slash(
        scene.admin, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await removing.final_message()
    confirmed = await fake.click(scene.admin, prompt, buttons(prompt)["Remove"])
    assert (await confirmed.followups(1))[0]["content"] == "Removed “Zorblax”."

    picked = await fake.select(scene.moderator, message, menu["custom_id"], [option["value"]])
    answer = (await picked.final_message())["content"]
    assert answer == (
        "The term this menu offered for “zorblx” is no longer in this server's glossary, so"
        " nothing was added. Run `/stats` again for a fresh list."
    ), answer
    assert await store.list_aliases(scene.guild.id) == []


async def test_a_mention_in_a_channel_the_bot_may_not_view_is_told_apart_from_one_it_may_not_post_in(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Discord refuses a post in a channel the bot may not view with Missing Access (403, 50001),
    as for a server it is not in; the fake said Missing Permissions (50013), the answer for a
    channel the bot sees but may not send in. Now the fake says 50001, and the bot's line says
    which: it cannot see that channel (View Channel), or cannot post there (Send Messages)."""
    fake = scene.fake
    guild, channel = scene.other_guild, scene.other_channel
    mention = f"<@{fake.bot.id}> what is rag"
    for role in guild.roles.values():
        role.permissions &= ~VIEW_CHANNEL
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, channel, mention)
    assert [v.kind for v in fake.pop_violations()] == ["missing_access"]
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    assert f"the bot may not view channel {channel.id}" in line, line
    assert "no longer in server" not in line, line
    assert "needs View Channel" in line, line

    for role in guild.roles.values():
        role.permissions = (role.permissions | VIEW_CHANNEL) & ~SEND_MESSAGES
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, channel, mention)
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"]
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    assert f"the bot may not post in channel {channel.id}" in line, line
    assert "Send Messages" in line, line


def test_a_terms_export_says_which_related_it_left_out_and_what_importing_it_back_does(
    tmp_path: Path,
) -> None:
    """Plan line V42: the maintainers removed (here renamed) an entry a server term relates to.
    The export leaves the related id out (an import refuses one that names nothing) with a
    comment in the file, but said nothing where the operator reads: importing the file back
    said "1 changed", where the README promises a file that imports back unchanged. Now the
    export says on stderr which related ids it left out, and that importing the file back
    changes those terms (the README says so too)."""
    exported, db, served = exported_after_a_rename(tmp_path)
    args = ("--guild", "5", "--db", db)
    assert exported.stderr.splitlines() == [
        "terms export: left out 1 related id no longer in the glossary (Blap: zorb); importing"
        " this file back changes that term"
    ], exported.stderr
    back = _cli(tmp_path, "terms", "import", "-", *args, stdin=exported.stdout, **served)
    assert back.returncode == 0, back.stderr
    assert back.stdout.startswith("Imported: 0 added, 1 changed"), back.stdout
    again = _cli(tmp_path, "terms", "export", *args, **served)
    assert (again.returncode, again.stderr) == (0, ""), again


async def test_a_term_export_in_discord_says_which_related_it_left_out(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """V42 in Discord: `/term export`'s answer said only "1 term of this server, as curated
    TOML." Now it names the related ids left out and what importing the file back does."""
    gone = ServerTerm(
        id="blap",
        title="Blap",
        definition="A blap thing.",
        category="Fundamentals",
        related=("rag", "zorb-gone"),
    )
    await write(store, scene.guild.id, scene.moderator.id, gone)
    bot.state.servers.forget(scene.guild.id)
    exported = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
    said = (await exported.final_message())["content"]
    assert said == (
        "1 term of this server, as curated TOML. Left out 1 related id no longer in the glossary"
        " (Blap: zorb-gone); importing this file back changes that term."
    ), said
