"""Round 15b (task ops16): the container and PostgreSQL as operators take them, and a glossary
reload racing a server's first answer (tests/outsider/PLAN.md, round 15b). Through `glossary-bot
run` against the fake Discord and the command line; the container lines are checked by the
script output recorded in PLAN.md."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from bot.discord_app import alias_cache, health
from bot.discord_app.state import READ_TIMEOUT
from bot.glossary import load_glossary
from bot.glossary.interchange import parse_import
from bot.heartbeat import NOT_CONNECTED, check_heartbeat
from bot.storage import Store
from bot.term_storage import TermChange, change_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of
from tests.resilience.botproc import BotProcess

from .conftest import Scene
from .test_round14 import _cli
from .test_round15 import RENAMED, ZORB

# A server's own term, imported before the bot starts: compiling the server's glossary (its
# index, with the meaning stage) takes a moment after every glossary reload.
BLORP = (
    '[[entries]]\nid = "blorp-queue"\ntitle = "Blorp Queue"\ncategory = "Fundamentals"\n'
    'definition = "The queue our nightly blorp jobs wait in before they run."\n'
)


async def test_the_first_answers_after_a_reload_have_the_servers_aliases_and_terms(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line Y13 (round 15 X36): right after `kill -HUP` removed the entry a server's alias
    named, the first `/define` of the alias said plain "No entry" (no word that it is an alias
    of a removed entry), and the next said it. A server with terms of its own was answered from
    the bundled glossary alone until its glossary was compiled against the new one: its aliases
    and its terms were "No entry" for that moment."""
    fake, mod = scene.fake, scene.moderator
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    terms = tmp_path / "blorp.toml"
    terms.write_text(BLORP)
    imported = _cli(
        tmp_path, "terms", "import", str(terms), "--guild", str(scene.guild.id),
        "--db", str(scene.db_path),
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    env = {"GLOSSARY_PATHS": str(folder), "GLOSSARY_CACHE_DIR": str(tmp_path / "cache")}
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **env) as bot:
        added = await fake.slash(
            mod, "alias add", {"alias": "qq zorbo", "term": "zorb"}, channel=scene.channel
        )
        assert (await added.final_message())["content"].startswith("Added"), "the alias"
        _, card = await define(fake, scene.alice, "blorp queue", scene.channel)
        assert embed_of(card)["title"] == "Blorp Queue", "the server's term, before"
        (folder / "mine.toml").write_text(RENAMED)
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output("glossary reloaded")  # the reload's own completion
        _, answer = await define(fake, scene.alice, "qq zorbo", scene.channel)
        assert (
            "this server's alias for “zorb”, which is no longer in the glossary"
            in (answer["content"])
        ), answer["content"]
        (folder / "mine.toml").write_text(ZORB)
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output("glossary reloaded", count=2)
        _, card = await define(fake, scene.alice, "blorp queue", scene.channel)
        assert card["embeds"], card["content"]
        assert embed_of(card)["title"] == "Blorp Queue", "the server's term, after"


async def test_a_reload_answers_a_server_from_its_own_glossary_while_it_is_compiled(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same in the bot's process, the compiling slowed as on a busy machine: after the
    reload, a server with terms of its own was answered from the bundled glossary alone while
    its glossary was compiled against the new one (a moment: the read timeout's quarter), so its
    alias and its term were "No entry". Now its first answer waits for that compiling, as a
    server's first answer after a start does."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    guild = scene.guild.id
    terms, problems = parse_import(BLORP.encode(), "blorp.toml", load_glossary([folder]))
    assert not problems, problems
    await change_terms(store, guild, lambda *_: (TermChange(put=tuple(terms)), None), 1)
    await store.add_alias(guild, "qq zorbo", "qq zorbo", "zorb", actor_id=1)
    compile_local = alias_cache.compile_local

    def slow_compile(*args: object, **kwargs: object) -> object:
        # In the indexing thread: longer than a request waits, however fast the machine.
        time.sleep(READ_TIMEOUT * 1.5)
        return compile_local(*args, **kwargs)  # type: ignore[arg-type]

    glossary = load_glossary([folder])
    # The bot's own read timeout, a loaded machine's margin for the read (0.2 s may be missed).
    async with start_bot(
        store, glossary=glossary, glossary_paths=[folder], read_timeout=READ_TIMEOUT
    ) as bot:
        _, card = await define(scene.fake, scene.alice, "blorp queue", scene.channel)
        assert embed_of(card)["title"] == "Blorp Queue", "the server's term, before"
        monkeypatch.setattr(alias_cache, "compile_local", slow_compile)
        (folder / "mine.toml").write_text(RENAMED)
        assert (await bot.state.reload_off_loop()).startswith("reloaded")
        _, answer = await define(scene.fake, scene.alice, "qq zorbo", scene.channel)
        assert (
            "this server's alias for “zorb”, which is no longer in the glossary"
            in (answer["content"])
        ), answer["content"]
        (folder / "mine.toml").write_text(ZORB)
        assert (await bot.state.reload_off_loop()).startswith("reloaded")
        _, card = await define(scene.fake, scene.alice, "blorp queue", scene.channel)
        assert card["embeds"], card["content"]
        assert embed_of(card)["title"] == "Blorp Queue", "the server's term, after"


def test_migrate_db_refusing_a_target_with_data_says_what_it_holds_in_words(
    tmp_path: Path,
) -> None:
    """Plan line Y9: `migrate-db` run twice (the README's warning) was refused with the target's
    tables by name, zeros included: "already holds data (0 lookups, 0 lookup total, 0 misses,
    0 miss total, 0 miss hours, 1 aliases, 1 audit log, 0 terms, 0 term audit log, 0
    suggestions)". Now what it holds, in the words of the copy's own line."""
    source, target = tmp_path / "bot.db", tmp_path / "copy.db"
    aliases = '[{"guild_id": 5, "alias": "zz lax", "entry_id": "kv-cache"}]'
    assert (
        _cli(tmp_path, "aliases", "import", "-", "--db", str(source), stdin=aliases).returncode == 0
    )
    assert _cli(tmp_path, "migrate-db", "--from", str(source), "--to", str(target)).returncode == 0
    again = _cli(tmp_path, "migrate-db", "--from", str(source), "--to", str(target))
    assert again.returncode == 1
    assert again.stderr.strip().splitlines()[-1] == (
        f"glossary-bot: error: --to {target} already holds data (1 alias, 1 alias audit entry); "
        "copying on top of it needs --force"
    ), again.stderr


def test_health_names_discord_lost_once_the_heartbeat_is_stale(tmp_path: Path) -> None:
    """Plan line Y6: the container's fake Discord stopped: the log said "unhealthy: not connected
    to Discord" within 10 s, but `health` (the HEALTHCHECK) said "healthy" for 45 s, as meant (a
    reconnect within that is no alarm), and then only "last heartbeat 47 s ago (more than 45 s)",
    which a bot hung or killed says too. Now the bot's heartbeat file says since when Discord is
    lost, keeping the last healthy beat's time, and `health` names it."""
    beat = tmp_path / "heartbeat"
    now = time.time()
    assert health._write_heartbeat(beat, None, says_why=False) is None
    os.utime(beat, (now - 50, now - 50))  # the last healthy beat, 50 s ago
    lost = health._write_heartbeat(beat, NOT_CONNECTED, says_why=False, lost_since=now - 40)
    assert lost is None
    healthy, said = check_heartbeat(beat, max_age=45, now=now)
    assert not healthy
    assert said == (
        "last heartbeat 50 s ago (more than 45 s): not connected to Discord for 40 s (reconnecting)"
    )
    healthy, said = check_heartbeat(beat, max_age=45, now=now - 20)  # 20 s before
    assert healthy, said
    assert (
        said == "healthy: last heartbeat 30 s ago; not connected to Discord for 20 s (reconnecting)"
    )
    # A bot that stopped saying anything since is down, whatever it said last.
    healthy, said = check_heartbeat(beat, max_age=45, now=now + 60)
    assert not healthy
    assert said.startswith("down: nothing from the bot for 60 s (more than 45 s); it last said: ")
    assert said.endswith(": not connected to Discord"), said


async def test_a_read_begun_before_a_reload_does_not_answer_after_it(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Plan line Y13, the other way the old glossary answered after a reload: a server's read
    under way when the reload swapped the glossary (its first since a start, or after an alias
    changed) was shared with the requests after the reload, so they were answered from the
    server's glossary compiled against the removed entries (the alias opened them)."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    guild = scene.guild.id
    await store.add_alias(guild, "qq zorbo", "qq zorbo", "zorb", actor_id=1)
    compile_local = alias_cache.compile_local
    entered, gate = threading.Event(), threading.Event()

    def held_compile(*args: object, **kwargs: object) -> object:
        entered.set()
        gate.wait(timeout=30)  # in the indexing thread: released by the test below
        return compile_local(*args, **kwargs)  # type: ignore[arg-type]

    glossary = load_glossary([folder])
    async with start_bot(store, glossary=glossary, glossary_paths=[folder]) as bot:
        servers = bot.state.servers
        monkeypatch.setattr(alias_cache, "compile_local", held_compile)
        servers.forget(guild)  # read afresh, as after a start
        before = asyncio.ensure_future(servers.local(guild, patient=True))
        await asyncio.to_thread(entered.wait, 30)  # that read is compiling, against ZORB
        (folder / "mine.toml").write_text(RENAMED)
        assert (await bot.state.reload_off_loop()).startswith("reloaded")
        after = asyncio.ensure_future(servers.local(guild, patient=True))
        gate.set()
        local = await after
        assert local.base is bot.state.index, "compiled against the glossary before the reload"
        assert local.entry("zorb") is None
        await before


async def test_a_read_begun_before_a_reload_and_ending_last_leaves_the_newer_cached(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(review16) The read begun before the reload (above) still ends, and it ended by caching
    what it compiled against the removed glossary over the read after the reload: the server
    was then stale again, so its next request read and indexed it once more (a server with
    terms meanwhile answered without them). What it compiled must not replace a newer one."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    guild = scene.guild.id
    await store.add_alias(guild, "qq zorbo", "qq zorbo", "zorb", actor_id=1)
    compile_local = alias_cache.compile_local
    entered, gate = threading.Event(), threading.Event()
    compiled = 0

    def first_held(*args: object, **kwargs: object) -> object:
        nonlocal compiled
        compiled += 1
        if compiled == 1:  # the read before the reload: held until the one after has ended
            entered.set()
            gate.wait(timeout=30)
        return compile_local(*args, **kwargs)  # type: ignore[arg-type]

    glossary = load_glossary([folder])
    async with start_bot(store, glossary=glossary, glossary_paths=[folder]) as bot:
        servers = bot.state.servers
        monkeypatch.setattr(alias_cache, "compile_local", first_held)
        servers.forget(guild)
        before = asyncio.ensure_future(servers.local(guild, patient=True))
        await asyncio.to_thread(entered.wait, 30)
        (folder / "mine.toml").write_text(RENAMED)
        assert (await bot.state.reload_off_loop()).startswith("reloaded")
        after = await servers.local(guild, patient=True)
        assert after.base is bot.state.index
        gate.set()
        await before  # the older read ends last
        assert compiled == 2
        again = await servers.local(guild, patient=True)
        assert again is after, "the older read's compile replaced the newer one in the cache"
        assert compiled == 2
