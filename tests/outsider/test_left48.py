"""left48: the session's leftovers (PLAN.md, "Leftovers (left48)"). The real bot process against
the fake Discord, the real command line, real files."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

from bot.discord_app import health
from bot.discord_app.app import GlossaryBot
from bot.heartbeat import STOPPED, check_heartbeat
from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import CLI_ENV, ROOT, BotProcess, glossary_bot_waited

from .conftest import Scene
from .test_forged47 import SUGGESTION_VALUES, TERM_VALUES, Forger, place_of, submitted, written

# `glossary-bot run` whose reload (SIGHUP, once connected) first raises what Python reports
# outside the logger unless told: a warning, an exception in a thread, one in a `__del__`
# (unraisable), and an asyncio future's exception never retrieved. Each carries the token.
# BotProcess runs it as a prefix; the command it appends is this script's arguments, ignored.
_REPORTS_WHILE_RELOADING = """
import asyncio, os, sys, threading, warnings
from bot import cli
from bot.discord_app.state import BotState

TOKEN = os.environ["DISCORD_TOKEN"]
reload = BotState.reload_off_loop

class Leaky:
    def __del__(self):
        raise RuntimeError("left48 unraisable " + TOKEN)

def fails():
    raise RuntimeError("left48 thread " + TOKEN)

async def reloading(self):
    warnings.warn("left48 warning " + TOKEN, RuntimeWarning)
    thread = threading.Thread(target=fails, name="left48-thread")
    thread.start()
    thread.join()
    Leaky()  # freed at once: its __del__ raises into sys.unraisablehook
    future = asyncio.get_running_loop().create_future()
    future.set_exception(RuntimeError("left48 future " + TOKEN))
    del future  # never retrieved: asyncio's exception handler
    return await reload(self)

BotState.reload_off_loop = reloading
sys.exit(cli.main(["run"]))
"""


async def test_warnings_and_thread_exceptions_are_json_log_lines(tmp_path: Path) -> None:
    """ops47: with LOG_FORMAT=json, a Python warning or an exception in a thread was printed by
    Python itself: raw text among the JSON lines (a log system reading JSON drops or flags
    it), the token unredacted. Now each is one JSON line through the configured logger."""
    wrapper = tmp_path / "reports_while_reloading.py"
    wrapper.write_text(_REPORTS_WHILE_RELOADING, "utf-8")
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            prefix=[sys.executable, str(wrapper)],
            LOG_FORMAT="json",
        )
        async with bot:
            bot.send_signal(signal.SIGHUP)
            await bot.wait_for_output("glossary reloaded: ", within=120)
            code = await bot.stop()
        token = fake.token
    assert code == 0, bot.output
    lines = [line for line in bot.lines if line.strip()]
    objects = []
    for line in lines:
        try:
            objects.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}\n{bot.output}") from None
    for what, level in (
        ("warning", "WARNING"),
        ("thread", "ERROR"),
        ("unraisable", "ERROR"),
        ("future", "ERROR"),
    ):
        said = [o for o in objects if f"left48 {what}" in o["message"] + o.get("exception", "")]
        assert len(said) == 1, (what, bot.output)
        assert said[0]["level"] == level, said
        assert "[redacted]" in said[0]["message"] + said[0].get("exception", ""), said
    assert token not in bot.output


_ENTRY = """
id = "zorb"
title = "Zorb"
category = "Fundamentals"
definition = "A made-up word for this test."
"""


@pytest.mark.parametrize(
    ("header", "key"),
    [
        ("[[entry]]", "entry"),
        ("[[Entries]]", "Entries"),
        ("[[entires]]", "entires"),
        ("[[entrys]]", "entrys"),
    ],
)
def test_check_of_a_near_miss_of_entries_says_entries(
    tmp_path: Path, header: str, key: str
) -> None:
    """ops47: `check` of a file written with `[[entry]]` said "unknown top-level keys:
    ['entry']" and no more: the file reads as no entries at all, and nothing said what the
    key is. Now the line names `[[entries]]`."""
    (tmp_path / "mine.toml").write_text(header + _ENTRY, "utf-8")
    status, said = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", "mine.toml")
    assert status == 1, said
    line = next(line for line in said.splitlines() if "unknown top-level key" in line)
    assert repr(key) in line, said
    assert "did you mean [[entries]]" in line, said


def test_check_of_entries_as_one_table_says_two_brackets(tmp_path: Path) -> None:
    """`[entries]` (one bracket) makes one table, not a list of them: "`entries` must be an
    array of tables" is right but names TOML's term, not what to write."""
    (tmp_path / "mine.toml").write_text("[entries]" + _ENTRY, "utf-8")
    status, said = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", "mine.toml")
    assert status == 1, said
    assert "write each entry under [[entries]] (two brackets)" in said, said


def test_check_of_an_overlay_with_a_near_miss_says_entries(tmp_path: Path) -> None:
    """The same for a curation overlay (`[entries."id"]` tables): `[entry."x"]` is named."""
    shutil.copytree(ROOT / "data", tmp_path / "data")
    overlay = tmp_path / "data" / "backend-ai-go-glossary.curation.toml"
    overlay.write_text(overlay.read_text("utf-8").replace("[entries.", "[entry.", 1), "utf-8")
    status, said = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", "data")
    assert status == 1, said
    line = next(line for line in said.splitlines() if "unknown top-level key" in line)
    assert 'did you mean [entries."…"]' in line, said


def test_a_key_far_from_entries_gets_no_guess(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text('title = "x"\n[[entries]]' + _ENTRY, "utf-8")
    status, said = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", "mine.toml")
    assert status == 1, said
    line = next(line for line in said.splitlines() if "unknown top-level key" in line)
    assert "did you mean" not in line, said


def test_check_of_an_overlay_written_as_entries_list_is_one_line(tmp_path: Path) -> None:
    """Found here: an overlay written as a curated file is (`[[entries]]`, two brackets) made
    `check` (and a start, and a reload) end in a traceback, `'list' object has no attribute
    'items'`. Now one line saying how an overlay's entries are written."""
    shutil.copytree(ROOT / "data", tmp_path / "data")
    overlay = tmp_path / "data" / "backend-ai-go-glossary.curation.toml"
    overlay.write_text('[[entries]]\nid = "Agent"\ncategory = "Agents"\n', "utf-8")
    status, said = glossary_bot_waited(CLI_ENV, tmp_path, "check", "-q", "data")
    assert status == 1, said
    assert "Traceback" not in said, said
    assert (
        "backend-ai-go-glossary.curation.toml: error: an overlay's `entries` are tables "
        'named by id: write each as [entries."…"] (one pair of brackets)'
    ) in said, said


async def test_a_member_forging_a_term_form_is_told_they_cannot_not_any_more(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """forged47: a member who submits a term form the bot never opened for them (they never
    had `/term`) was told "You can't change this server's terms any more": they never could.
    Now "You can't change this server's terms: that takes ...", true of a member who never
    could and of a moderator whose role went since the form opened."""
    forger = Forger(scene, caplog)
    for kind in ("a", "e"):
        data = {
            "custom_id": f"gb:term:{scene.alice.id}:0123456789ab:{kind}",
            "components": submitted(TERM_VALUES),
        }
        before = written(scene.db_path)
        handle = await forger.form(scene.alice, scene.channel, data)
        text = await forger.answer(f"a member's term form ({kind})", handle)
        assert text.startswith(
            "You can't change this server's terms: that takes the right to "
            "use `/term` in this channel. Nothing was changed."
        ), text
        assert "any more" not in text, text
        assert written(scene.db_path) == before
    assert not forger.faults, forger.summary()


async def test_forms_submitted_in_a_dm_say_forms_work_only_in_a_server(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """forged47: a form submitted in a DM (no form opens there: a forged one) with the
    presser's own id was told "This form belongs to another moderator" / "someone else": it
    was theirs. Now it says where forms work. Another's id in a DM says the same: no form
    works there, whoever's."""
    forger = Forger(scene, caplog)
    for presser in (scene.moderator, scene.alice):
        channel = place_of(scene, "DM", presser)
        for owner in (presser, scene.bob):
            for custom_id, values in (
                (f"gb:term:{owner.id}:0123456789ab:a", TERM_VALUES),
                (f"gb:term:{owner.id}:0123456789ab:e", TERM_VALUES),
                (f"gb:suggestion:{owner.id}", SUGGESTION_VALUES),
            ):
                where = f"{presser.username}, {custom_id}"
                before = written(scene.db_path)
                data = {"custom_id": custom_id, "components": submitted(values)}
                text = await forger.answer(where, await forger.form(presser, channel, data))
                assert text == "Forms work only in a server, so nothing was saved.", where
                assert written(scene.db_path) == before
    assert not forger.faults, forger.summary()


def _folder(parent: Path, name: str) -> Path:
    folder = parent / name
    folder.mkdir()
    return folder


SHARED = "is the heartbeat of another running process"


def _text(path: Path) -> str:
    return path.read_text("utf-8")


async def refused_beside(
    first: BotProcess, second: BotProcess, heartbeat: Path, shared: str
) -> str:
    """Start `second` on the running `first`'s SQLite file and heartbeat: it is refused (exit
    2), leaves the first's beat (healthy, no stop line) and says so in one WARNING, which
    holds `shared` and is returned (no advice to part HEARTBEAT_PATHs: the refusal is for the
    database); the first runs on. CLAIM_WAIT=0: refused at once, not
    after a restart's handover (review46 tests the wait)."""
    second.env = {**second.env, "CLAIM_WAIT": "0"}
    await second.start(wait_ready=False)
    code = await second.exited(within=120)
    healthy, said = check_heartbeat(heartbeat)
    assert code == 2, second.output
    assert healthy, said
    assert not _text(heartbeat).startswith(STOPPED)
    warned = [line for line in second.lines if shared in line]
    assert len(warned) == 1, second.output
    assert " WARNING " in warned[0], warned
    # mend73 (outsider73's A7): refused for the database, not for the heartbeat. Failed before:
    # "give each process its own HEARTBEAT_PATH", which a second bot refused there cannot use.
    assert "its own HEARTBEAT_PATH" not in warned[0], warned
    assert "stopped before its first beat, so the file stays that bot's" in warned[0], warned
    assert first.process is not None
    assert first.process.returncode is None  # the first runs on
    return warned[0]


async def test_a_second_process_refused_leaves_the_running_ones_heartbeat(
    tmp_path: Path,
) -> None:
    """review47's item 4: two processes on one HEARTBEAT_PATH (same host, same `.env`): the
    second, refused (the SQLite file is the first's: exit 2 after CLAIM_WAIT), wrote its
    "stopped ... on an error" over the running one's heartbeat, and `health` said the running
    bot had stopped until its next beat. Now the file is left to its running owner, with one
    WARNING naming HEARTBEAT_PATH."""
    heartbeat = tmp_path / "heartbeat"
    async with (
        FakeDiscord(shard_count=1) as fake,
        BotProcess(
            fake, tmp_path / "bot.db", cwd=_folder(tmp_path, "first"), HEARTBEAT_PATH=str(heartbeat)
        ) as first,
    ):
        await first.wait_for_output("healthy: heartbeat in", within=60)
        second = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=_folder(tmp_path, "second"),
            HEARTBEAT_PATH=str(heartbeat),
        )
        warned = await refused_beside(first, second, heartbeat, SHARED)
        assert f"HEARTBEAT_PATH={heartbeat}" in warned, warned


async def test_a_refused_start_leaves_a_live_processs_beat_and_writes_over_a_dead_ones(
    tmp_path: Path,
) -> None:
    """The same without a race with the running bot's next beat: the file holds a beat
    written by this test's own process (alive, another than the bot's). A start refused (no
    DISCORD_TOKEN) leaves it. A beat whose process is gone (killed, never said its stop) is
    written over, as before: `health` then says the refused start's stop."""
    heartbeat = tmp_path / "heartbeat"
    assert health._write_heartbeat(heartbeat, None, False) is None  # a beat, by this pid
    left = heartbeat.read_text("utf-8")
    async with FakeDiscord(shard_count=1) as fake:
        bot = BotProcess(
            fake, tmp_path / "bot.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat), DISCORD_TOKEN=""
        )
        await bot.start(wait_ready=False)
        code = await bot.exited(within=60)
        assert code == 2, bot.output
        assert heartbeat.read_text("utf-8") == left
        assert bot.output.count(SHARED) == 1, bot.output
        # The writer gone: a pid no process has (past the kernel's pid_max).
        heartbeat.write_text(left.replace(f"pid {os.getpid()} ", "pid 99999999 "), "utf-8")
        assert heartbeat.read_text("utf-8") != left
        again = BotProcess(
            fake, tmp_path / "bot.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat), DISCORD_TOKEN=""
        )
        await again.start(wait_ready=False)
        assert await again.exited(within=60) == 2, again.output
    assert SHARED not in again.output, again.output
    healthy, said = check_heartbeat(heartbeat)
    assert said.startswith("stopped: the bot stopped on an error "), said
    assert not healthy
