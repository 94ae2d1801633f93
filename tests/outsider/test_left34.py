"""Leftovers of the last session (task left34, PLAN.md "Leftovers of last session (left34)").

Through the real bot (discord.py) against the fake Discord on real SQLite files."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord_app import health
from bot.discord_app.app import STORE_SHARE
from bot.glossary import Glossary
from bot.glossary.interchange import export_bytes
from bot.glossary.server_terms import ServerTerm
from bot.heartbeat import check_heartbeat
from bot.storage import AliasImport, Store
from bot.storage.cli import check_servers
from bot.storage.sqlite.backup import backup_database
from bot.term_storage import TermChange, change_terms, read_terms
from tests.clients import ConnectedClient
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define
from tests.discord_app.term_commands import open_edit, run_import, submit
from tests.resilience.helpers import warned

from .conftest import Scene


def _term(term_id: str, title: str) -> ServerTerm:
    return ServerTerm(
        id=term_id,
        title=title,
        category="Fundamentals",
        definition=f"A made-up thing of the raid called {title}.",
    )


# Stored before left31 and review29 refused them: two server terms in each other's other
# number, and a term in the other number of a bundled name (the glossary's "KV Cache").
PAIR = (_term("zorb-engine", "Zorb Engine"), _term("zorb-engines", "Zorb Engines"))
CACHES = _term("kv-caches", "KV Caches")


async def _store_unchecked(store: Store, scope: int, terms: tuple[ServerTerm, ...]) -> None:
    await change_terms(store, scope, lambda *_: (TermChange(put=terms), None), 1)


async def test_stored_pairs_now_refused_are_reported_by_check_db_and_at_start(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    glossary: Glossary,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """They loaded and showed, and nothing said so until a moderator's edit (or a re-import of
    the server's own export) was refused. Now `check --db` warns of each, and the bot logs one
    line for the server as it reads it at start."""
    await _store_unchecked(store, scene.guild.id, (*PAIR, CACHES))
    _, problems = await asyncio.to_thread(check_servers, scene.db_path, glossary)
    said = [f"{p.file}: {p.message}" for p in problems]
    where = f"server {scene.guild.id}"
    assert said == [
        f"{where}: term “KV Caches” (id 'kv-caches') is read by search as “KV Cache”, the "
        "glossary's name for “KV Cache”: stored before such names were refused, it is shown "
        "as stored, but /term edit refuses to save it until it is renamed",
        f"{where}: term “Zorb Engines” (id 'zorb-engines') is read by search as “Zorb Engine”, "
        "a name of the server's term “Zorb Engine”: stored before such names were refused, it "
        "is shown as stored, but /term edit refuses to save either until one is renamed",
    ], said
    caplog.set_level(logging.WARNING, logger="bot")
    async with start_bot(store):
        told = [
            r.getMessage() for r in caplog.records if "such names were refused" in r.getMessage()
        ]
    assert told == [
        f"server {scene.guild.id} has 2 terms stored before such names were refused, which "
        "search reads as another name (in its other number, or leaving out what is around it) "
        "(“KV Caches” as the glossary's "
        "“KV Cache”; “Zorb Engines” as the server's “Zorb Engine”): they are shown as stored, "
        "but /term edit refuses to save them until they are renamed (check --db lists them)"
    ], told


async def test_editing_a_term_of_a_stored_pair_says_what_to_rename(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Its edit was refused with the words for a new name ("add it to that term, or choose a
    name …"), though the moderator changed only the definition. Now the refusal says the two
    were stored before such pairs were refused and which to rename; a rename saves."""
    await _store_unchecked(store, scene.guild.id, (*PAIR, CACHES))
    async with start_bot(store):
        opened = await open_edit(scene, scene.moderator, "zorb-engine")
        told = await submit(scene, scene.moderator, opened, {"definition": "Our own engine."})
        assert (
            "“Zorb Engine” is read by search as “Zorb Engines”, a name of this server's term "
            "“Zorb Engines”, so the two would open different cards. The two were stored before "
            "such pairs were refused: rename this term, or “Zorb Engines”, so that search reads "
            "them apart."
        ) in told["content"], told
        opened = await open_edit(scene, scene.moderator, "kv-caches")
        told = await submit(scene, scene.moderator, opened, {"definition": "Our own caches."})
        assert (
            "“KV Caches” is read by search as “KV Cache”, the bundled glossary's name for “KV "
            "Cache”, so the two would open different cards. This term was stored with it before "
            "such names were refused: rename it (or name it “KV Cache” to word that entry here)."
        ) in told["content"], told
        opened = await open_edit(scene, scene.moderator, "zorb-engine")
        saved = await submit(scene, scene.moderator, opened, {"title": "Zorb Motor"})
        assert saved["content"].startswith("Saved **Zorb Motor**"), saved
        stored = {t.id: t for t in await read_terms(store, scene.guild.id)}
        assert stored["zorb-engines"] == PAIR[1]
        assert stored["kv-caches"] == CACHES


async def test_a_reimport_of_the_servers_own_export_keeps_a_stored_pair(
    scene: Scene, start_bot: StartBot, store: Store, glossary: Glossary
) -> None:
    """A re-import of the server's own export was refused whole ("Nothing was imported") for
    such a pair. Now the rest is imported and the pair kept as stored, named in the answer;
    nothing stored is lost. A new term in the other number of a stored one is still refused."""
    await _store_unchecked(store, scene.guild.id, (*PAIR, CACHES))
    fake = scene.fake
    own = export_bytes(await read_terms(store, scene.guild.id), glossary)
    more = own + b'\n[[entries]]\nid = "blorp"\ntitle = "Blorp"\ncategory = "Fundamentals"\n'
    more += b'definition = "A made-up thing of the raid called Blorp."\n'
    async with start_bot(store):
        answer = await run_import(scene, fake.add_attachment("terms.toml", more))
        assert answer.startswith("Imported: 1 added, 0 changed, 0 removed."), answer
        assert (
            "“Zorb Engines” is read by search as “Zorb Engine”, a name of this server's term "
            "“Zorb Engine”: kept as stored (the two were stored before such pairs were "
            "refused); rename one with /term edit so that search reads them apart."
        ) in answer, answer
        assert "“KV Caches” is read by search as “KV Cache”" in answer, answer
        stored = {t.id: t for t in await read_terms(store, scene.guild.id)}
        assert stored["zorb-engines"] == PAIR[1]
        assert stored["kv-caches"] == CACHES
        assert stored["zorb-engine"] == PAIR[0]
        assert "blorp" in stored
        new = b'[[entries]]\nid = "blorp-units"\ntitle = "Blorps"\ncategory = "Fundamentals"\n'
        new += b'definition = "A made-up thing of the raid called Blorps."\n'
        answer = await run_import(scene, fake.add_attachment("new.toml", more + new))
        assert answer.startswith("Nothing was imported: 1 problem"), answer
        assert "“Blorps” is read by search as “Blorp”" in answer, answer


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


async def test_backup_of_a_stopped_bots_file_leaves_nothing_beside_it(tmp_path: Path) -> None:
    """`backup` read a stopped bot's file (nothing beside it: SQLite removes its log at a clean
    stop) on a read-only connection, which leaves an empty `-wal` and `-shm` behind (left32
    found them kept by `restore`). Now they are gone again after the copy; a running bot's
    (beside a store still open) are left to it, and its file still takes writes."""
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    await store.add_alias(5, "kv stash", "kv stash", "kv-cache", actor_id=9)
    await store.close()
    assert _files(tmp_path) == ["bot.db"]
    await backup_database(path, tmp_path / "copy.db")
    assert _files(tmp_path) == ["bot.db", "copy.db"]
    store = await Store.open(path)
    try:
        await backup_database(path, tmp_path / "again.db")
        assert (tmp_path / "bot.db-wal").exists()  # the open store's
        await store.add_alias(5, "kv hoard", "kv hoard", "kv-cache", actor_id=9)
        assert set(await store.aliases(5)) == {"kv stash", "kv hoard"}
    finally:
        await store.close()
    copy = await Store.open(tmp_path / "copy.db")
    try:
        assert set(await copy.aliases(5)) == {"kv stash"}
    finally:
        await copy.close()


class _HeldSecondWrite:
    """`health`'s clock: its second read in a worker thread (the second beat's write, under
    way in its thread) waits until the test lets it go."""

    def __init__(self) -> None:
        self.reads = 0
        self.entered = threading.Event()
        self.go = threading.Event()

    def time(self) -> float:
        if threading.current_thread() is not threading.main_thread():
            self.reads += 1
            if self.reads == 2:
                self.entered.set()
                self.go.wait()
        return time.time()


async def test_no_heartbeat_lands_after_the_stopped_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At stop the keeper was cancelled and "stopped at …" written; a beat already in its
    thread then landed after that line, and `health` read a running bot for up to 45 s. Shown
    first with that sequence; now the keeper is stopped and awaited (its write included) before
    the line is written, which stays the file's last word."""
    # One thread for `health`'s writes: a no-op queued behind the held one returns after it.
    writes, waits = ThreadPoolExecutor(max_workers=1), ThreadPoolExecutor(max_workers=1)
    loop = asyncio.get_running_loop()
    loop.set_default_executor(writes)
    store = await Store.open(tmp_path / "bot.db")
    try:
        for old in (True, False):
            beat = tmp_path / f"heartbeat-{old}"
            clock = _HeldSecondWrite()
            monkeypatch.setattr(health, "time", SimpleNamespace(time=clock.time))
            stop = asyncio.Event()
            keeper = asyncio.create_task(
                health.keep_heartbeat(ConnectedClient(), store, beat, interval=0, stop=stop)  # type: ignore[arg-type]
            )
            await loop.run_in_executor(waits, clock.entered.wait)  # the second beat is writing
            if old:
                keeper.cancel()
                # The line now waits for a beat under way (review35 R7: `_WRITES`), so even
                # this sequence leaves it last; before, the held beat landed after it.
                marked = loop.run_in_executor(waits, health.mark_stopped, beat)
                clock.go.set()
                await marked
                await loop.run_in_executor(writes, lambda: None)  # the held write has landed
                healthy, why = check_heartbeat(beat)
                assert (healthy, why.split(" the bot")[0]) == (False, "stopped:"), why
                continue
            stopping = asyncio.create_task(health.stop_heartbeat(keeper, stop, beat))
            clock.go.set()
            await stopping
            await loop.run_in_executor(writes, lambda: None)
            healthy, why = check_heartbeat(beat)
            assert (healthy, why.split(" the bot")[0]) == (False, "stopped:"), why
    finally:
        await store.close()


CALLBACK = "/interactions/{interaction_id}/{token}/callback"


async def test_answers_not_sent_by_the_stops_deadline_are_dropped_in_one_line(
    scene: Scene, start_bot: StartBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The stop waits for the answers under way until its deadline, then closes the
    connection; an answer still waiting (here a reply Discord rate limited for 30 s) went on
    and was sent into the closed session later (an error where the stop was said done). Now
    those still under way at the deadline are dropped, with one line saying how many."""
    fake = scene.fake
    caplog.set_level(logging.INFO, logger="bot")
    async with start_bot(store) as bot:
        fake.fail_next("POST", CALLBACK, status=429, retry_after=30.0)
        async with warned("is rate limited"):
            await fake.slash(scene.alice, "define", {"term": "rag"}, channel=scene.channel)
        busy = set(bot._busy)
        assert len(busy) == 1, busy
        loop = asyncio.get_running_loop()
        bot.stop_deadline = loop.time() + STORE_SHARE  # no time left for answers
        await bot.close()
        assert all(task.done() for task in busy), busy
    said = [r.getMessage() for r in caplog.records if "deadline" in r.getMessage()]
    assert said == [
        "stopping: 1 answer not sent by the stop's deadline is dropped, not sent into the "
        "closed connection"
    ], said


async def test_an_interaction_stamped_ahead_does_not_hold_its_members_cooldown(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The per-member limits counted each use at the interaction's own time, its id's: one
    stamped an hour ahead (a clock of Discord's ahead, once) began that member's window an hour
    from now, so the next use over the limit was told "try again in 3610 s", and so on for the
    hour. Now a use counts when it reached the bot (`Arrivals.arrived`, never ahead of this
    machine's clock): told to wait what is left of the 10 s. Alike for /define's limit and a
    moderator command's own (/alias remove). Found on the way: such a command was counted
    twice among the fastest arrivals, so every later interaction looked an hour late."""
    fake = scene.fake
    wall = time.time
    # An alias the first removal removes: one that writes nothing gives its use back (left61).
    await store.import_aliases([AliasImport(scene.guild.id, "zorb here", "zorb here", "rag")])
    async with start_bot(store, cooldown=(1, 10.0)):
        await define(fake, scene.bob, "rag", scene.channel)  # the clocks' offset, on time
        for user, command, options in (
            (scene.alice, "define", {"term": "rag"}),
            (scene.moderator, "alias remove", {"alias": "zorb here"}),
        ):
            ahead = SimpleNamespace(time=lambda: wall() + 3600.0)
            monkeypatch.setattr("tests.fake_discord.models.time", ahead)
            first = await fake.slash(user, command, options, channel=scene.channel)
            monkeypatch.setattr("tests.fake_discord.models.time", time)
            assert "going a bit fast" not in str(await first.final_message()), command
            again = await fake.slash(user, command, options, channel=scene.channel)
            said = str((await again.final_message())["content"])
            wait = re.fullmatch(r"You're going a bit fast: try again in (\d+) s\.", said)
            assert wait is not None, said
            assert int(wait.group(1)) <= 10, said
            if command == "define":
                # Counted twice (its check, then its command), the command stamped ahead was
                # both fastest arrivals: every later one looked an hour late (its card posted).
                handle, _ = await define(fake, scene.admin, "lora", scene.channel)
                assert handle.callback is not None, handle.records  # answered in it


EMBED_LINKS = 1 << 14


async def test_a_role_losing_a_permission_mid_run_is_seen_by_the_bot(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """The fake sent CHANNEL_UPDATE for a channel's edit, but nothing for a role's: a bot's
    role losing Embed Links mid-run was unseen (its cache keeps what GUILD_CREATE said, as with
    Discord until it sends GUILD_ROLE_UPDATE). Now `fake.update_role` sends it: unsent, a
    mention still gets a card the bot believes it can show; sent, the line saying Embed Links
    is needed. (Since left42 the fake posts that card without it, as Discord does, and the bot
    makes the post that line.)"""
    fake = scene.fake
    async with start_bot(store) as bot:
        assert bot.user is not None
        mention = f"<@{bot.user.id}> what is rag"
        for role in scene.guild.roles.values():
            role.permissions &= ~EMBED_LINKS
        await fake.user_message(scene.alice, scene.channel, mention)
        stale = await fake.wait_for_channel_message(scene.channel)
        # Its cache still says it may: it sends the card, which Discord posts without it
        # (the fake too since left42); the bot then makes that post the line saying so.
        assert not stale["embeds"], stale

        def made_readable() -> Any:
            now = fake.message(int(stale["id"]))
            return now if now["content"] else None

        said = await fake.waiter.wait_for(made_readable, "the stale card's post made readable")
        assert "needs the **Embed Links** permission" in said["content"], said
        for role in scene.guild.roles.values():
            await fake.update_role(role)
        await fake.user_message(scene.alice, scene.channel, mention)
        seen = await fake.wait_for_channel_message(scene.channel)
        assert not seen["embeds"], seen
        assert "needs the **Embed Links** permission" in seen["content"], seen
        me = bot.get_guild(scene.guild.id)
        assert me is not None
        assert not any(r.permissions.embed_links for r in me.roles), me.roles
