"""Leftovers of the last reviews (tests/outsider/PLAN.md, "Leftovers (left47)"): each through
the real client against the fake Discord, real SQLite or PostgreSQL, or the real command line;
each test failed before its fix."""

from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path

import discord
import pytest
from discord.utils import escape_markdown

from bot.discord_app import health
from bot.discord_app.app import GlossaryBot, ShardedGlossaryBot
from bot.discord_app.state import BotState
from bot.glossary import Glossary
from bot.glossary.sources import text_sha256
from bot.heartbeat import NOT_CONNECTED
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, is_ephemeral, selects, serve
from tests.discord_app.term_commands import add_term
from tests.fake_discord import FakeDiscord
from tests.fake_discord.mentions import is_silent
from tests.polling import eventually
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_waited
from tests.resilience.conftest import StartBot
from tests.storage.conftest import FakeClock

from .conftest import Scene
from .test_round30 import smart_quoted_data


async def moderator_answer(scene: Scene, command: str, options: dict[str, str]) -> str:
    """The moderator's slash `command` in the scene's channel: its answer, private, as text."""
    handle = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
    message = await handle.final_message()
    assert is_ephemeral(message), message
    return str(message["content"])


async def test_an_alias_removed_alone_in_its_terms_second_says_alone(
    scene: Scene, start_bot: StartBot
) -> None:
    """Item 1 (left45, review46): an alias removed alone was matched to its term's removal by
    actor and second, so one the moderator removed alone just before removing its term (the
    same second: the clock stands still here) read "removed with its term". Now the two
    removals share the write's id."""
    store = await Store.open(scene.db_path, clock=FakeClock())
    async with start_bot(store):
        await add_term(scene)
        for alias in ("zorbalias", "zorbother"):
            added = await moderator_answer(scene, "alias add", {"alias": alias, "term": "zorblax"})
            assert added.startswith("Added"), added
        assert (await moderator_answer(scene, "alias remove", {"alias": "zorbother"})) == (
            "Removed “zorbother”."
        )
        asked = await scene.fake.slash(
            scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
        )
        prompt = await asked.final_message()
        clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
        await clicked.followups(1)
        alone = await moderator_answer(scene, "alias remove", {"alias": "zorbother"})
        assert re.fullmatch(
            r"This server has no alias “zorbother”: it was removed <t:\d+:R>\.", alone
        ), alone
        with_term = await moderator_answer(scene, "alias remove", {"alias": "zorbalias"})
        assert re.fullmatch(
            r"This server has no alias “zorbalias”: it was removed with its term “Zorblax” "
            r"<t:\d+:R> \(`/term log` says by whom\)\.",
            with_term,
        ), with_term


async def _check(tmp_path: Path) -> tuple[int, list[str]]:
    status, said = await asyncio.to_thread(
        glossary_bot_waited, CLI_ENV, tmp_path, "check", "-q", "data"
    )
    return status, said.splitlines()


async def test_a_genuine_reference_to_no_entry_is_named_beside_an_unreadable_file(
    tmp_path: Path,
) -> None:
    """Item 2 (review44's K14): with `foundations.toml` unreadable (smart quotes on one title),
    every reference to no entry was folded into one counted line, a genuine one (a kinds line
    for a removed entry, a "See X." of a name no file has) among them. A reference to an id or
    name the unreadable file's text does not hold cannot be one of its entries: named now,
    where it is; the file's echoes stay one line."""
    data = smart_quoted_data(tmp_path)
    kinds = data / "kinds" / "kinds.toml"
    kinds_text = kinds.read_text(encoding="utf-8")
    kinds.write_text(kinds_text + 'zzz-removed-entry = "tool"\n', "utf-8")
    kinds_line = kinds_text.count("\n") + 1
    markdown = data / "backend-ai-go-glossary.md"
    pinned = text_sha256(markdown.read_bytes())
    markdown.write_text(
        markdown.read_text(encoding="utf-8").replace("See ReAct.", "See Zorbulator.", 1),
        "utf-8",
    )
    manifest = data / "sources.toml"  # a verbatim file, changed on purpose: pinned anew
    repinned = manifest.read_text(encoding="utf-8").replace(
        pinned, text_sha256(markdown.read_bytes())
    )
    manifest.write_text(repinned, "utf-8")
    status, lines = await _check(tmp_path)
    assert status == 1, lines
    assert lines[0].startswith("data/foundations.toml: error: not valid TOML: "), lines
    assert re.fullmatch(
        r"data/foundations\.toml: error: \d+ references to entries \(kinds, asked-as tables, "
        r"related ids\) name no entry: not listed, as this file, which may hold them, could not "
        r"be read; `check` lists those left once it reads",
        lines[1],
    ), lines
    assert lines[2] == (
        "data/foundations.toml: error: 2 references name no entry, nor anything this file's "
        "text holds (so none of its entries, unless the file is cut short): "
        f"'zzz-removed-entry' (data/kinds/kinds.toml:{kinds_line}), "
        "'See Zorbulator.' (data/backend-ai-go-glossary.md:7)"
    ), lines
    assert len(lines) == 3, lines


async def _import(scene: Scene, filename: str, data: str) -> str:
    handle = await scene.fake.slash(
        scene.moderator,
        "term import",
        {"file": scene.fake.add_attachment(filename, data)},
        channel=scene.channel,
    )
    message = await handle.final_message()
    assert is_ephemeral(message), message
    return str(message["content"])


MARKED = "**Zorb** _engine_ `x` ~~y~~ ||z|| <t:0:R>"


async def test_markdown_typed_in_an_import_is_shown_as_typed(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 3 (review44's K8 and K11): an import's problem lines repeated titles and names as
    Markdown: “**Zorb** _engine_” rendered bold and italic, backticks as code, `||z||` as a
    spoiler, `<t:0:R>` as a timestamp. Each now shows as typed (escaped); the bot's own code
    spans (`/term edit`) stay code, and the terms an import names are escaped too."""
    refused = await _import(
        scene,
        "bad.toml",
        f'[[entries]]\ntitle = "{MARKED}"\ndefinition = "x"\ncategory = "Fundamentals"\n\n'
        '[[entries]]\ntitle = "Zorb_long_"\ncategory = "Fundamentals"\n'
        f'definition = "{"d" * 4050}"\n',
    )
    shown = escape_markdown(MARKED).replace("<", "\\<")
    assert f"“{shown}”" in refused, refused
    assert MARKED not in refused, refused
    assert "“Zorb\\_long\\_”" in refused, refused
    assert "more than `/term edit`'s form holds" in refused, refused
    imported = await _import(
        scene,
        "good.toml",
        '[[entries]]\ntitle = "**Zorb** _engine_ ~~y~~"\ndefinition = "The nightly zorb job."\n'
        'category = "Fundamentals"\n',
    )
    assert imported.startswith("Imported: 1 added"), imported
    assert "\\*\\*Zorb\\*\\* \\_engine\\_ \\~\\~y\\~\\~" in imported, imported


async def test_a_stop_while_the_database_opens_logs_no_error(tmp_path: Path) -> None:
    """Item 4 (review46's attack 2): SIGTERM while the store opens (DATABASE_URL at a server
    that takes the connection and never answers) waited for the open's own timeout and then
    logged an ERROR, "cannot open the database", on the way out: a stop then is normal. Now
    one INFO line, exit 0."""
    connected = asyncio.Event()
    held: list[asyncio.StreamWriter] = []

    async def never_answer(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        connected.set()

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with FakeDiscord(shard_count=1) as fake:
            bot = BotProcess(
                fake,
                tmp_path / "unused.db",
                cwd=tmp_path,
                DATABASE_URL=f"postgresql://u:p@127.0.0.1:{port}/glossary",
            )
            await bot.start(wait_ready=False)
            await eventually(connected.is_set, "the bot to open the database")
            code = await bot.stop(within=30)
            assert code == 0, bot.output
            assert "ERROR" not in bot.output, bot.output
            assert "Traceback" not in bot.output, bot.output
            assert "stopped while opening the database" in bot.output, bot.output
            assert fake.gateway.identify_count == 0
    finally:
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_a_connection_whose_ready_has_not_come_is_not_healthy(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 5: Discord ends the session (op 9, not resumable); the bot identifies again and the
    gateway answers its heartbeats, but READY does not come (a session slow to start). The
    health check read the open connection as connected: the bot served nothing and the
    heartbeat said healthy. Now not connected until READY (or RESUMED) comes."""

    async def no_pause(*_: object, **__: object) -> None:  # discord.py's 5 s between IDENTIFYs
        return None

    monkeypatch.setattr(discord.Client, "before_identify_hook", no_pause)
    gateway = scene.fake.gateway
    assert await health.unhealthy_reason(bot, store) is None
    gateway.ready_gate.clear()
    await gateway.invalidate_session(resumable=False)
    await eventually(lambda: gateway.identifies_held == 1, "the IDENTIFY held")
    await eventually(lambda: math.isfinite(bot.latency), "a heartbeat answered")
    assert await health.unhealthy_reason(bot, store) == NOT_CONNECTED
    gateway.ready_gate.set()
    await eventually(lambda: gateway.ready_sent, "READY")
    await eventually(lambda: _healthy(bot, store), "healthy again once READY came")


async def _healthy(bot: GlossaryBot, store: Store) -> bool:
    return await health.unhealthy_reason(bot, store) is None


async def test_replies_and_mentions_in_replies_ping_no_one(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 6: a member's reply to a public card (a slash command's message: Discord lists
    the bot, its author, in the reply's mentions), a mention of the bot in a reply to another
    member's message (which pings that member, listed first), and the buttons on the answers:
    every message the bot sends says it may ping no one (`allowed_mentions`, replied_user
    false included), and none would (the fake's check)."""
    fake = scene.fake
    _, card = await define(fake, scene.alice, "rag", scene.channel)
    assert card["embeds"], card
    said = await fake.user_message(scene.alice, scene.channel, "hello <@" + str(scene.bob.id) + ">")
    before = len(fake.sent_messages)
    await fake.user_message(scene.bob, scene.channel, "what is lora", reply_to=card)
    await fake.user_message(
        scene.bob, scene.channel, f"<@{fake.bot.id}> what is rag", reply_to=said
    )
    await fake.user_message(scene.bob, scene.channel, f"<@{fake.bot.id}>", reply_to=said)
    await eventually(lambda: len(fake.sent_messages) >= before + 3, "the bot's three answers")
    answers = [m for m in fake.sent_messages[before:] if m.kind == "channel_message"]
    assert len(answers) == 3, [a.message for a in answers]
    pressed = 0
    for answer in answers:
        for user in (scene.alice, scene.bob):  # another member's card, then the asker's own
            shown = buttons(fake.store.get(int(answer.message["id"])) or answer.message)
            if shown:
                clicked = await fake.click(user, answer.message, next(iter(shown.values())))
                await clicked.final_message()
                pressed += 1
    assert pressed, [a.message for a in answers]
    for sent in fake.sent_messages:
        assert sent.pings == [], sent
        if sent.kind != "edit":
            assert is_silent(sent.body.get("allowed_mentions")), sent
    assert fake.violations == [], fake.violations


async def test_escaped_markdown_in_a_message_is_read_as_shown(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Item 7: in a message, Discord shows `\\`` as a backtick and `\\*` as a star: "@Glossary
    \\`kv cahce\\`" reads "@Glossary `kv cahce`" on screen. Search got the backslashes
    ("\\ kv cahce\\"), found no card and offered one, its question echoed with them; a miss
    too. Now a mention reads the text as Discord shows it (code spans keep theirs). Explain
    terms read such text right already (its term finder breaks words at a backslash): kept as
    a guard."""
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} \\`kv cahce\\`")
    card = await fake.wait_for_channel_message(scene.channel)
    assert card["embeds"], card
    assert card["embeds"][0]["title"] == "KV Cache", card
    await fake.user_message(
        scene.alice, scene.channel, f"{fake.bot.mention} \\*\\*zorbleflux\\*\\*"
    )
    miss = await fake.wait_for_channel_message(scene.channel)
    assert miss["content"].startswith("No entry for “\\*\\*zorbleflux\\*\\*”"), miss
    said = await fake.user_message(
        scene.bob, scene.channel, "our \\*\\*kv cache\\*\\* is full again"
    )
    listing = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    assert [o["value"] for o in selects(listing)[0]["options"]] == ["kv-cache"], listing


async def test_a_shard_whose_ready_has_not_come_is_lost(
    glossary: Glossary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 5 in a process of two shards: shard 1's session ends, its new connection's READY is
    held. It read as up (its heartbeats answered); now it is a lost shard, the process still
    connected by shard 0, until its READY comes."""

    async def no_pause(*_: object, **__: object) -> None:
        return None

    monkeypatch.setattr(discord.Client, "before_identify_hook", no_pause)
    store = await Store.open(tmp_path / "bot.db", flush_interval=None)
    # A short IDENTIFY window on both sides (Discord's 5 s): shard 1 identifies twice here.
    window = 0.3
    async with FakeDiscord(shard_count=2, identify_window=window) as fake:
        with fake.patch_discord_py():
            client = ShardedGlossaryBot(
                BotState(glossary, store),
                shard_count=2,
                guild_ready_timeout=0.05,
                identify_window=window,
            )
            async with serve(client, fake):
                gateway = fake.gateway
                assert health.lost_shards(client) == []
                gateway.ready_gate.clear()
                await gateway.invalidate_session(resumable=False, shard_id=1)
                await eventually(lambda: gateway.identifies_held == 1, "shard 1's IDENTIFY held")
                await eventually(
                    lambda: all(math.isfinite(latency) for _, latency in client.latencies),
                    "both shards' heartbeats answered",
                )
                assert health.lost_shards(client) == [1]
                assert health.is_connected(client)
                gateway.ready_gate.set()
                await eventually(lambda: health.lost_shards(client) == [], "shard 1 back")
    assert fake.violation_report() is None, fake.violation_report()
