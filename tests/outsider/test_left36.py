"""Leftovers of the last stop (tests/outsider/PLAN.md, "Leftovers of the last stop (left36)"):
the log of members at their DM cap, an interaction delivered twice, a `/term` form saved
during a stop, `terms import` of a snapshot and of a term kept as stored, the fake Discord by
hand.

The real bot and discord.py against the fake Discord, real SQLite files, the command line."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.terms import UNFINISHED_AT_STOP
from bot.discord_app.member_searches import DM_MOST_WAITING, MemberSearches, turn_of
from bot.glossary import Glossary
from bot.glossary.interchange import export_bytes
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import embed_of
from tests.discord_app.term_commands import TERM, open_add, run_import
from tests.discord_app.test_member_searches import STUCK, queued_searches
from tests.fake_discord import FakeDiscord
from tests.resilience.conftest import StartBot

from .conftest import Scene
from .stopping import told_during_a_stop
from .test_left24 import in_a_read_only_folder
from .test_left34 import PAIR, _store_unchecked, _term
from .test_round18_left import ZORBLAX_ENGINE

SEARCHES_LOG = "bot.discord_app.member_searches"


async def _invokers_done() -> None:
    """Wait for the tasks discord.py answers interactions in (the fake's `settle` has let the
    bot read every event sent, so those of the events read so far exist)."""
    running = [t for t in asyncio.all_tasks() if t.get_name() == "CommandTree-invoker"]
    if running:
        await asyncio.wait(running, timeout=STUCK)


async def read_again(fake: FakeDiscord, said: dict[str, Any]) -> None:
    """`said` delivered once more (a resume replay), and the bot done with it: its listener's
    task ended and any post it made at the fake."""
    await fake.redeliver_message(said)
    await fake.settle()  # the bot has read it: its listener's task, if any, exists
    listening = [t for t in asyncio.all_tasks() if t.get_name() == "discord.py: on_message"]
    if listening:
        await asyncio.wait(listening, timeout=STUCK)
    await fake.settle()  # and a post it made has reached the fake


async def test_an_interaction_delivered_twice_is_answered_and_counted_once(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Leftover 2: the same INTERACTION_CREATE delivered twice (Discord replaying an event)
    was taken twice: the member's lookups limit counted it twice (the next `/define` within
    the limit was refused), the search ran again and its answer was refused by Discord (40060),
    logged as an error with a traceback. Now the second delivery is dropped as it is read:
    one answer, one use, one lookup."""
    fake = scene.fake
    async with start_bot(store, cooldown=(2, 60.0)):
        first = await fake.slash(scene.alice, "define", {"term": "kv cache"}, channel=scene.channel)
        await first.final_message()
        await fake.redeliver(first)
        await fake.settle()  # the bot has read it
        await _invokers_done()
        assert [r.kind for r in first.records].count("callback") == 1, first.records
        assert fake.pop_violations() == []
        again = await fake.slash(scene.alice, "define", {"term": "kv cache"}, channel=scene.channel)
        assert embed_of(await again.final_message())["title"] == "KV Cache"  # the 2nd use of 2
        await _invokers_done()  # a lookup is counted once its answer is sent
        assert await store.total_lookups(scene.guild.id) == 2


async def test_a_mention_delivered_twice_is_answered_once(scene: Scene, bot: GlossaryBot) -> None:
    """Leftover 2, found beside it: the same MESSAGE_CREATE delivered twice was answered with
    a second card in the channel. Now it is dropped as it is read, as an interaction is."""
    fake = scene.fake
    said = await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} kv cache")
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"
    await read_again(fake, said)
    assert [m.kind for m in fake.sent_messages] == ["channel_message"], fake.sent_messages


async def test_members_at_their_dm_cap_are_one_line_a_burst(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Leftover 1: each member at their DM cap logged one WARNING: a raid of 100 accounts
    wrote 100 lines before the joint cap's one. Now the first member at the cap is one line,
    as a server's cap is (again once DMs drain), and when they drain one line counts the
    members refused at their cap in that burst. (Cap 2 here; 8 members, under the joint cap.)"""
    caplog.set_level(logging.WARNING, logger=SEARCHES_LOG)
    searches = MemberSearches(most_waiting=2)
    release = threading.Event()
    members, each = 8, min(2, DM_MOST_WAITING)

    turns = [turn_of(None, member) for member in range(1, members + 1) for _ in range(each)]
    try:
        tasks = await queued_searches(searches, turns, release)
        for member in range(1, members + 1):  # each member once more: at their cap
            refused = searches.run(turn_of(None, member), release.wait)
            assert await asyncio.wait_for(refused, STUCK) is None
    finally:
        release.set()
    assert await asyncio.gather(*tasks) == [True] * (members * each)
    said = [r.getMessage() for r in caplog.records if r.name == SEARCHES_LOG]
    assert said == [
        "direct messages: 2 members' messages to read (mentions, replies, Explain terms) "
        "waiting, the most one member may have: more are refused until some are done "
        "(a flood?)",
        "direct messages: 8 members were at their cap of 2 in that burst (the first said "
        "above); none waiting now",
    ], said


async def _stop_during_a_save(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    *,
    released_in_the_stop: bool,
) -> list[str]:
    """A `/term add` form submitted while another writer holds the database's write lock; a
    stop with no time left for answers once the form's write is under way; the lock released
    as the stop cancels the answers (or only once the stop is over). What the moderator was
    told."""
    async with start_bot(store) as bot:
        opened = await open_add(scene, scene.moderator, category="Retrieval & Context")
        return await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "change_terms",
            lambda: scene.fake.submit_modal(scene.moderator, opened, TERM),
            released_in_the_stop=released_in_the_stop,
        )


async def test_a_term_form_whose_write_ends_past_the_stops_deadline_is_answered(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Leftover 3 (review35 R6): a stop while a `/term add` form's save waited on the
    database (another writer holding its lock, a `terms import` say): at the answers'
    deadline the save's task was cancelled; its write, one shielded transaction, went on and
    committed, but the moderator heard nothing (Discord's "did not respond"). Now the save is
    waited for within what is left of the stop (the connection still open), then answered."""
    told = await _stop_during_a_save(
        scene, start_bot, store, monkeypatch, released_in_the_stop=True
    )
    assert [text.split(" in ")[0] for text in told] == ["Added **Zorblax**"], told
    stored = await Store.open(scene.db_path)
    try:
        assert [t.title for t in await read_terms(stored, scene.guild.id)] == ["Zorblax"]
    finally:
        await stored.close()


async def test_a_term_form_whose_write_outlasts_the_stop_is_told_so(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Leftover 3, a database that does not answer before the stop is over: the moderator is
    told, before the connection closes, that the save had not finished and is whole or not
    at all (it was nothing, as above)."""
    told = await _stop_during_a_save(
        scene, start_bot, store, monkeypatch, released_in_the_stop=False
    )
    assert told == [UNFINISHED_AT_STOP], told


def test_a_dry_run_import_reads_a_snapshot(tmp_path: Path) -> None:
    """Leftover 4: `terms import --dry-run` of a bot's file alone in a read-only folder (a
    snapshot) was refused ("the database's folder … is read-only"): an import opens the store
    for writing, a dry run too. A dry run writes nothing: now it reads a snapshot as `stats`
    and `terms export` do (`reading_store`: through a copy), and says what it would import;
    the folder and the file as they were."""
    (tmp_path / "zorblax.toml").write_text(ZORBLAX_ENGINE, "utf-8")
    folder = tmp_path / "snap"
    command = ("terms", "import", "zorblax.toml", "--guild", "1", "--dry-run", "--db", "snap/g.db")
    done, before = in_a_read_only_folder(folder, *command)
    assert done.returncode == 0, done
    assert done.stdout.startswith("Dry run, nothing written. Would import: 1 added"), done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before


async def test_a_term_kept_as_stored_is_checked_as_stored(
    scene: Scene, start_bot: StartBot, store: Store, glossary: Glossary
) -> None:
    """Leftover 5: an import keeps a term of a pair stored before such pairs were refused
    ("Zorb Engines" beside "Zorb Engine") as stored, whatever the file says of it; but it
    checked the file's version against the rest. The file took "Quark" off Zorb Engines and
    gave it to a new term, Flux: checked, nothing clashed; written, Zorb Engines kept "Quark"
    as stored, and two terms had the name. Now the kept term is checked as it is written:
    Flux's "Quark" is refused, nothing imported, nothing stored changed."""
    engines = PAIR[1].model_copy(update={"aliases": ("Quark",)})
    await _store_unchecked(store, scene.guild.id, (PAIR[0], engines))
    flux = _term("flux", "Flux").model_copy(update={"aliases": ("Quark",)})
    edited = export_bytes([PAIR[0], PAIR[1], flux], glossary)  # "Quark" moved to Flux
    async with start_bot(store):
        answer = await run_import(scene, scene.fake.add_attachment("terms.toml", edited))
        assert answer.startswith("Nothing was imported: 1 problem"), answer
        assert "“Quark” is already a name of this server's term “Zorb Engines”" in answer, answer
        stored = {t.id: t for t in await read_terms(store, scene.guild.id)}
        assert stored == {"zorb-engine": PAIR[0], "zorb-engines": engines}


ROOT = Path(__file__).resolve().parents[2]
GUARD = 120.0  # seconds: a bound on a hang of the processes below, not a timing


async def _read_until(stream: asyncio.StreamReader, said: str) -> str:
    """What `stream` printed up to and including the line holding `said`."""
    printed = ""
    async with asyncio.timeout(GUARD):
        while said not in printed:
            line = await stream.readline()
            assert line, f"ended before {said!r}: {printed}"
            printed += line.decode()
    return printed


async def run_bot_by_hand(folder: Path, settings: dict[str, str]) -> asyncio.subprocess.Process:
    """`glossary-bot run` in `folder` (no developer's .env) with only the `settings` the
    hand-run fake printed and a database there, as README's first run does."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "run",
        cwd=folder,
        env={
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(ROOT),
            "DATABASE_PATH": str(folder / "g.db"),
            **settings,
        },
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


async def stopped(*processes: asyncio.subprocess.Process | None) -> None:
    """Each of `processes` still running stopped by SIGTERM, in order (a test's cleanup)."""
    for process in processes:
        if process is not None and process.returncode is None:
            process.send_signal(signal.SIGTERM)
            async with asyncio.timeout(GUARD):
                await process.wait()


async def test_the_fake_discord_started_by_hand_answers_through_the_bot(tmp_path: Path) -> None:
    """Leftover 6: tests/fake_discord had no way to be started by hand, so README's "no Discord
    application yet?" pointed at a test. Now `python -m tests.fake_discord` serves a server,
    prints the settings for `glossary-bot run`, and reads `/define TERM` (or a message to the
    bot) from its input as a member, printing the answer; end of input stops it. Run as the
    README says, without the test tools (`make run`'s .venv has no pytest: hidden here)."""
    hidden = tmp_path / "no-test-tools" / "pytest"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text('raise ImportError("pytest is not installed")\n', "utf-8")
    fake = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fake_discord",
        cwd=ROOT,  # the checkout, as the README runs it
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(hidden.parent)},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert fake.stdin is not None
    assert fake.stdout is not None
    bot = None
    try:
        printed = await _read_until(fake.stdout, "waiting for the bot")
        settings = dict(re.findall(r"(DISCORD_\w+)=(\S+)", printed))
        assert sorted(settings) == ["DISCORD_API_BASE_URL", "DISCORD_GATEWAY_URL", "DISCORD_TOKEN"]
        bot = await run_bot_by_hand(tmp_path, settings)
        await _read_until(fake.stdout, "connected.")
        fake.stdin.write(b"/define kv cache\nwhat is rag?\n")
        await fake.stdin.drain()
        assert (await _read_until(fake.stdout, "[KV Cache]")).endswith("[KV Cache]\n")
        await _read_until(fake.stdout, "[Retrieval-Augmented Generation (RAG)]")
        fake.stdin.close()  # end of input: the fake stops
        async with asyncio.timeout(GUARD):
            assert await fake.wait() == 0
    finally:
        await stopped(fake, bot)
    assert bot is not None
    assert bot.returncode == 0
