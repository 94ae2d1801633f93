"""Leftovers of the last session (task left34, PLAN.md "Leftovers of last session (left34)").

Through the real bot (discord.py) against the fake Discord on real SQLite files."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.glossary import Glossary
from bot.glossary.interchange import export_bytes
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.storage.cli import check_servers
from bot.storage.sqlite.backup import backup_database
from bot.term_storage import TermChange, change_terms, read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.test_term_files import run_import
from tests.discord_app.test_terms import open_edit, submit

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
        told = [r.getMessage() for r in caplog.records if "other number" in r.getMessage()]
    assert told == [
        f"server {scene.guild.id} has 2 terms stored before such names were refused, which "
        "search reads as another name in its other number (“KV Caches” as the glossary's "
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
