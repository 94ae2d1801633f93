"""Known storage and command-line faults left by earlier rounds (task store19), each through the
real code: the bot against the fake Discord, the command line in a process of its own, real
SQLite files."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import sqlite3
import weakref
from pathlib import Path

import pytest

from bot.discord_app import alias_cache
from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, rename_taken
from tests.discord_app.helpers import define, embed_of
from tests.polling import eventually
from tests.resilience.conftest import Scene, StartBot

from .test_round14 import _cli
from .test_round15 import ZORB
from .test_round15 import _cli as _cli15
from .test_round18_left import _top_terms

# A server's term stored under the id of a bundled entry of another concept (KV Cache), as a
# term added before the glossary gained that entry is.
CLASH = ServerTerm(
    id="kv-cache", title="Zorblax Quux", definition="Our nightly quux job.", category="Fundamentals"
)
FLAP = ServerTerm(
    id="zorb-flap", title="Zorb Flap", definition="The flap of the zorb.", category="Fundamentals"
)


async def _put(store: Store, scope: int, *terms: ServerTerm) -> None:
    await change_terms(store, scope, lambda *_: (TermChange(put=terms), None), 1)


def _spoil(db: object, term_id: str) -> None:
    """A stored term's body that no longer parses (a hand edit, a damaged copy)."""
    with sqlite3.connect(str(db)) as conn:
        conn.execute("UPDATE terms SET body = '{\"title\": 3' WHERE id = ?", (term_id,))


async def test_an_unreadable_term_blocks_no_rename_and_is_named(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A server with a term whose id a bundled entry has and another term whose stored body does
    not parse: the rename's plan parsed every term of the server, so the unreadable one raised
    there, was caught (any exception) at debug level, and no term was renamed. Now the rename
    leaves the unreadable term as it is and renames the other; the log names the unreadable
    term (server, id, why) in one line."""
    guild = scene.guild.id
    await _put(store, guild, CLASH, FLAP)
    _spoil(scene.db_path, "zorb-flap")
    caplog.set_level(logging.WARNING, logger=alias_cache.__name__)
    async with start_bot(store) as bot:
        await bot.state.servers.local(guild)
        ids = sorted(row.id for row in await store.terms(guild))
    assert ids == ["zorb-flap", "zorblax-quux"], ids
    assert "the database refused the write" not in caplog.text, caplog.text
    named = [r.getMessage() for r in caplog.records if "'zorb-flap'" in r.getMessage()]
    assert named, caplog.text
    assert named == [
        f"could not index the aliases and terms of server {guild} (read from the database): its "
        "stored term 'zorb-flap' cannot be read (not valid JSON): answering with what was last "
        "indexed, or the bundled glossary alone, until they change"
    ], named
    assert not any(r.exc_info for r in caplog.records), caplog.text  # no traceback


async def test_a_rename_plan_that_breaks_surfaces(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a refused write is the database's: a programming error in the rename is not caught
    as if it were (it was, at debug level, with every exception)."""
    guild = scene.guild.id
    await _put(store, guild, CLASH)

    async def broken(*_: object, **__: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(alias_cache, "rename_taken", broken)
    async with start_bot(store) as bot:
        with pytest.raises(KeyError):
            await bot.state.servers.current(guild)


async def test_stats_names_an_unreadable_terms_id_by_the_entry_that_has_it(
    scene: Scene, store: Store, tmp_path: Path
) -> None:
    """`stats --guild` of a server whose unreadable stored term has the id of a bundled entry
    showed the id where the entry's title belongs ("kv-cache  [kv-cache]"): the unreadable ids,
    each named by itself, were laid over the glossary's titles."""
    guild = scene.guild.id
    await _put(store, guild, CLASH)
    store.record_lookup(guild, "kv-cache")
    await store.close()
    _spoil(scene.db_path, "kv-cache")
    shown = _cli(tmp_path, "stats", "--db", str(scene.db_path), "--guild", str(guild))
    assert shown.returncode == 0, shown.stderr
    assert _top_terms(shown.stdout) == ["KV Cache  [kv-cache]"], shown.stdout
    assert shown.stderr.splitlines() == [
        f"glossary-bot: warning: server {guild}'s stored term 'kv-cache' cannot be read "
        "(not valid JSON): its lookups are shown under the glossary's “KV Cache”"
    ], shown.stderr


def blap_then_blapper(tmp_path: Path, *guilds: str) -> tuple[dict[str, str], str]:
    """Each of `guilds` imports a term "Blap" (id `blap`) from the command line; then the
    maintainers' glossary gains "Blapper Unit", another concept, with the id `blap`. The
    settings serving that glossary, and the database."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "mine.toml").write_text(ZORB)
    served = {"GLOSSARY_PATHS": str(folder)}
    db = str(tmp_path / "g.db")
    blap = '[[entries]]\nid = "blap"\ntitle = "Blap"\ncategory = "Fundamentals"\n'
    blap += 'definition = "Our nightly invoice job."\n'
    for guild in guilds:
        imported = _cli15(
            tmp_path, "terms", "import", "-", "--guild", guild, "--db", db, stdin=blap, **served
        )
        assert imported.returncode == 0, imported.stderr
    blapper = '[[entries]]\nid = "blap"\ntitle = "Blapper Unit"\ncategory = "Fundamentals"\n'
    blapper += 'definition = "The maintainers\' blapper unit, another concept."\n'
    (folder / "mine.toml").write_text(ZORB + "\n" + blapper)
    return served, db


def test_the_command_line_says_which_ids_the_bot_will_rename(tmp_path: Path) -> None:
    """A server's term "Blap" (id `blap`); the maintainers add an entry with the id `blap`. The
    bot renames the term when it next reads the server (X35); until then `terms export` and
    `stats --guild` showed the old id as if it would stay. They read and do not rename (the
    glossary they load may not yet be the one the bot serves): they say which id changes."""
    served, db = blap_then_blapper(tmp_path, "5")
    note = (
        "glossary-bot: note: server 5's term “Blap” has the id 'blap', which the glossary's "
        "“Blapper Unit” now has: the bot renames it 'blap-2' (with its aliases, related ids and "
        "lookups) when it next reads the server with this glossary"
    )
    for command in (("terms", "export"), ("stats",)):
        shown = _cli15(tmp_path, *command, "--guild", "5", "--db", db, **served)
        assert shown.returncode == 0, shown.stderr
        assert shown.stderr.splitlines() == [note], (command, shown.stderr)
    exported = _cli15(tmp_path, "terms", "export", "--guild", "5", "--db", db, **served)
    assert 'id = "blap"' in exported.stdout, "the file has the id the database has"


async def test_terms_log_json_gives_the_bots_rename_no_users_id(
    tmp_path: Path, glossary: Glossary
) -> None:
    """`terms log --json` gave the bot's rename (X35) `"actor_id": 0`, the operator's id, while
    the text log says "the bot". Now each entry says who acted (`actor`: member, operator or
    bot) and the bot's has no user id."""
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    await _put(store, 5, CLASH)
    renamed = await rename_taken(store, 5, "kv-cache", glossary)
    assert renamed is not None
    assert renamed.id == "zorblax-quux"
    await store.close()
    logged = _cli(tmp_path, "terms", "log", "--guild", "5", "--db", str(db), "--json")
    assert logged.returncode == 0, logged.stderr
    entries = json.loads(logged.stdout)
    shown = [(e["action"], e["actor"], e["actor_id"]) for e in entries]
    assert shown == [("term_rename", "bot", None), ("term_add", "member", 1)], shown
    text = _cli(tmp_path, "terms", "log", "--guild", "5", "--db", str(db))
    assert "the bot renamed (the glossary gave its id to an entry) “Zorblax Quux”" in text.stdout


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_an_idle_server_lets_go_of_what_it_holds(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Each server's compiled glossary (aliases, terms, their index) stayed in the bot's server
    cache until its next request, however long it was idle: a bot in thousands of servers held
    every one it had ever served. Now a server not asked for in IDLE_AFTER is dropped, and read
    again at its next request; one asked for meanwhile is kept."""
    guild = scene.guild.id
    await store.add_alias(guild, "qq zorbo", "qq zorbo", "kv-cache", actor_id=1)
    clock = _Clock()
    async with start_bot(store) as bot:
        # The warm-up at connecting reads this server too, and sets the collector's objects
        # aside: the test starts once it has ended, as a server asked later would. (This failed
        # twice under CI load with the glossary still held; not reproduced alone: the warm-up
        # running meanwhile is the one difference found.)
        ready = [t for t in asyncio.all_tasks() if t.get_name() == "discord.py: on_ready"]
        await asyncio.gather(*ready)
        servers = bot.state.servers
        servers.clock = clock
        held = weakref.ref(await servers.local(guild))
        clock.now += alias_cache.IDLE_AFTER - 1
        await servers.local(guild)  # asked for again: kept for another IDLE_AFTER
        clock.now += alias_cache.IDLE_AFTER - 1
        servers.drop_idle()
        assert servers.knows(guild)
        clock.now += 2
        servers.drop_idle()
        assert not servers.knows(guild)

        def collected() -> bool:
            gc.collect()
            return held() is None

        # What holds it a moment longer (review53, caught with gc.get_referrers under load, 2
        # runs in 12): the default executor's thread that compiled it (`_load`'s to_thread).
        # Its result reaches the loop by call_soon_threadsafe, and the loop may run on (the
        # load done, the server dropped) before that thread is scheduled again to return from
        # the call and drop its work item, whose future holds the result. Not a leak: gone at
        # the thread's next turn; what counts is that nothing else holds it.
        await eventually(collected, "the dropped server's glossary collected", within=20)
        _, card = await define(scene.fake, scene.alice, "qq zorbo", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"  # read again


async def test_an_idle_server_lets_go_of_the_glossary_before_a_reload(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """After a glossary reload, a server not asked for since kept, through its compiled
    glossary, the old glossary's whole index alive until its next request. Now it is dropped
    once it has been idle for STALE_IDLE_AFTER."""
    guild = scene.guild.id
    await store.add_alias(guild, "qq zorbo", "qq zorbo", "kv-cache", actor_id=1)
    clock = _Clock()
    async with start_bot(store) as bot:
        servers = bot.state.servers
        servers.clock = clock
        assert bot.state.reload().startswith("reloaded")  # not the tests' (a fixture keeps it)
        _, card = await define(scene.fake, scene.alice, "qq zorbo", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"
        old = weakref.ref(bot.state.index)
        assert bot.state.reload().startswith("reloaded")
        await scene.fake.settle()
        clock.now += alias_cache.STALE_IDLE_AFTER + 1
        servers.drop_idle()
        gc.collect()
        assert old() is None
        _, card = await define(scene.fake, scene.alice, "qq zorbo", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"
