"""left48: the session's leftovers (PLAN.md, "Leftovers (left48)"). The real bot process against
the fake Discord, the real command line, real files."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import BotProcess

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
