"""Small leftovers of earlier rounds (task left30, PLAN.md "Leftovers (left30)"): the real bot
(discord.py) against the fake Discord on real SQLite files, and `glossary-bot` on the command
line."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import embed_of
from tests.discord_app.term_commands import add_term
from tests.fake_discord.models import SEND_MESSAGES
from tests.resilience.botproc import CLI_ENV, glossary_bot_waited
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_left28 import alias_add


async def test_an_alias_refusal_quotes_the_alias_as_the_moderator_typed_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """readme28's N31: `zorb-lax` beside the server's Zorblax was refused as "“zorb lax”
    already names …", the alias as search keys it, not as typed. Now the refusal quotes what the
    moderator typed and, where search reads it otherwise than by case, how it reads it."""
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    said = await alias_add(scene, "Zorb-Lax", "kv-cache")
    assert said.startswith("“Zorb-Lax” (search reads it as “zorb lax”) "), said
    assert "**Zorblax**" in said, said
    assert await alias_add(scene, "KV Cache", "rag") == (
        "“KV Cache” already names **KV Cache** in the glossary."
    )
    assert (await alias_add(scene, "KV Stash", "kv-cache")).startswith("Added"), scene
    assert await alias_add(scene, "KV-Stash", "rag") == (
        "“KV-Stash” (search reads it as “kv stash”) is already this server's alias for "
        "**KV Cache**. Remove it first to change it."
    )


def test_check_of_a_folder_without_glossary_files_says_what_is_missing(tmp_path: Path) -> None:
    """readme28's left: `glossary-bot check` on an empty data folder ended "0 entries (); 1
    error(s), 0 warning(s)" under "FOLDER: error: no glossary entries found", and a folder of
    files check does not read (notes.rst) said the same. Now the error says the folder holds no
    file check reads, and which endings it reads; the summary has no empty brackets."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "notes.rst").write_text("Zorblax\n=======\n", encoding="utf-8")
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "data")
    assert status == 1, output
    assert output.splitlines() == [
        "data: error: no glossary entries found: the folder holds no glossary file "
        "(a .json, .md, .txt or .toml file)",
        "0 entries; 1 error(s), 0 warning(s)",
    ], output
    (folder / "notes.rst").unlink()
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "check", "empty.toml")
    assert status == 1, output
    assert output.splitlines()[-1].startswith("0 entries (0 from empty); 1 error(s)"), output


async def test_a_channel_permission_changed_while_connected_is_seen(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The fake sent a channel's overwrites in GUILD_CREATE only, so no test could see the bot
    follow a moderator's edit of a channel while it runs: a mention is not answered where the
    bot may not post (`_post_permission`, read from discord.py's cache of the channel), and the
    operator told which permission. Now the fake sends CHANNEL_UPDATE as Discord does: a Send
    Messages taken from the bot there is seen (no post tried, one line naming it), and given
    back, mentions there are answered again."""
    fake = scene.fake
    said = f"{fake.bot.mention} kv cache"
    await fake.user_message(scene.alice, scene.channel, said)
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"
    scene.channel.overwrite(fake.bot, deny=SEND_MESSAGES)
    await fake.update_channel(scene.channel)
    async with warned("lacks Send Messages there") as records:
        await fake.user_message(scene.alice, scene.channel, said)
        # Mentions are answered in order: once the other server's is, the first is done with.
        await fake.user_message(scene.alice, scene.other_channel, said)
        await fake.wait_for_channel_message(scene.other_channel)
    [line] = [r.getMessage() for r in records]
    assert str(scene.channel.id) in line, line
    scene.channel.overwrite(fake.bot, allow=SEND_MESSAGES)
    await fake.update_channel(scene.channel)
    await fake.user_message(scene.alice, scene.channel, said)
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"


async def test_define_searches_off_the_event_loop_taking_its_turn(
    scene: Scene, bot: GlossaryBot
) -> None:
    """`/define` searched its term (up to 100 characters) on the event loop, where members'
    text goes to a worker thread (`MemberSearches`): 50 members sending 100-character nonsense
    at once stalled the loop 3.1-3.6 s, every server's answers with it (loop_lag_bench.py
    --kinds define, PLAN.md "Leftovers (left30)"). Now its search runs in a worker of its own
    (a flood of long messages does not hold it up: test_member_searches.py): with that worker
    held by another server's search, `/define` is acknowledged (a defer: Discord gives it 15
    minutes) and answered once the worker is free."""
    release = threading.Event()
    searches = bot.state.term_searches
    held = asyncio.create_task(searches.run(scene.other_guild.id, release.wait))
    try:
        asked = await scene.fake.slash(
            scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
        )
        assert (await asked.response())["type"] == 5, asked.records  # deferred
        assert not held.done()
    finally:
        release.set()
    assert await held is True
    assert embed_of(await asked.final_message())["title"] == "KV Cache"
