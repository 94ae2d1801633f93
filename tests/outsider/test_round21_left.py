"""Known product faults left by earlier rounds (task left21), each through the bot against the
fake Discord or the real command line, on real SQLite files."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.discord_app import health
from bot.discord_app.app import GlossaryBot
from bot.heartbeat import check_heartbeat
from bot.storage import Store
from tests.discord_app.helpers import define
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round15 import _cli
from .test_round16_left import CALLBACK

UNKNOWN = "qq zorblaxing"


async def _missed(bot: GlossaryBot, scene: Scene) -> int:
    store = bot.state.store
    assert store is not None
    await scene.fake.settle()  # a miss is counted once its send returned
    return sum(m.count for m in await store.top_misses(scene.guild.id) if m.query == UNKNOWN)


async def test_a_public_define_whose_miss_is_lost_to_the_deadline_counts_no_miss(
    scene: Scene, bot: GlossaryBot
) -> None:
    """A public /define's "no entry" is private to the asker: past Discord's 3 s it cannot be
    posted in the channel and is lost. Where the bot has Embed Links it was counted as a missed
    search all the same (recorded with the reply, before its send), where a private /define
    counted nothing. Now a miss is counted once its answer is sent, as a card is, whether the
    answer is a reply or follows a defer."""
    fake = scene.fake
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost"):
        await fake.slash(scene.alice, "define", {"term": UNKNOWN}, channel=scene.channel)
    assert await _missed(bot, scene) == 0
    bot.state.servers.forget(scene.guild.id)  # /define reads the aliases again: it defers
    fake.fail_next("POST", CALLBACK, status=429, retry_after=3.2)
    async with warned("private answer is lost"):
        await fake.slash(scene.alice, "define", {"term": UNKNOWN}, channel=scene.channel)
    assert await _missed(bot, scene) == 0
    _, said = await define(fake, scene.alice, UNKNOWN, scene.channel)
    assert said["content"].startswith("No entry for"), said
    assert await _missed(bot, scene) == 1


def test_command_line_refusals_show_no_discord_markup(tmp_path: Path) -> None:
    """`aliases import` and `terms import` refusals are the words /alias add and /term import
    say in Discord, where a term's name is in bold: on a terminal they showed the markup,
    "already names **Retrieval-Augmented Generation (RAG)**". Now plain on the command line;
    Discord keeps its bold."""
    db = str(tmp_path / "g.db")
    aliases = [
        {"guild_id": 5, "alias": "RAG", "entry_id": "kv-cache"},
        {"guild_id": 5, "alias": "zq stash", "entry_id": "kv-cache"},
    ]
    imported = _cli(tmp_path, "aliases", "import", "-", "--db", db, stdin=json.dumps(aliases))
    assert "item 1: “RAG” already names Retrieval-Augmented Generation (RAG) in the glossary." in (
        imported.stderr
    ), imported.stderr
    assert "**" not in imported.stderr + imported.stdout, imported
    term = '[[entries]]\nid = "zq"\ntitle = "ZQ Stash"\ncategory = "Fundamentals"\n'
    term += 'definition = "A zq stash."\n'
    refused = _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=term)
    assert refused.returncode == 1, refused
    assert "(for KV Cache)" in refused.stderr, refused.stderr
    assert "**" not in refused.stderr + refused.stdout, refused


async def test_a_mention_answered_after_the_bot_was_removed_says_it_is_no_longer_there(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The bot removed from a server between a mention and its reply: Discord refuses the reply
    as Missing Access (403, 50001), as it refuses a channel the bot may not view, and the log
    told the operator the permissions the bot needs. Now the bot asks Discord for the server
    (404, 10004 Unknown Guild for one it is not in) and says it is no longer in it; a reply
    refused for a permission still names the permissions."""
    fake = scene.fake
    del scene.guild.members[fake.bot.id]  # removed; its GUILD_DELETE not sent yet
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, scene.channel, f"<@{fake.bot.id}> what is rag")
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    assert f"the bot is no longer in server {scene.guild.id}" in line, line
    assert "needs View Channel" not in line, line
    assert "missing_access" in [v.kind for v in fake.pop_violations()]


class LostAfterOneBeat:
    """A client connected for one heartbeat, then lost (its latency unknown) for one more,
    judged `ago` seconds after the healthy one (the heartbeat's clock moved on: `clock`)."""

    def __init__(self, ago: float) -> None:
        self.ago, self.reads, self.ahead = ago, 0, 0.0

    def clock(self) -> float:
        return time.time() + self.ahead

    async def wait_until_ready(self) -> None:
        return None

    def is_ready(self) -> bool:
        return True

    def is_closed(self) -> bool:
        return self.reads >= 2

    @property
    def latency(self) -> float:  # read once a beat
        self.reads += 1
        if self.reads == 1:
            return 0.05
        self.ahead = self.ago
        return float("inf")


async def test_the_log_says_unhealthy_when_health_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord lost: `health` calls the bot unhealthy once its last healthy heartbeat is over
    45 s old, but the log counted the 45 s from the first beat that saw Discord lost, up to a
    heartbeat (10 s) later, and said "reconnecting" meanwhile while `health` said unhealthy.
    Now both read one judgement of the same beat: the first beat to see Discord lost, 46 s
    after the last healthy one, is logged unhealthy, as `health` says then; 30 s after, both
    say reconnecting."""
    caplog.set_level(logging.INFO, logger=health.__name__)
    store = await Store.open(tmp_path / "bot.db")
    try:
        for ago, level, said in (
            (30.0, logging.INFO, "not connected to Discord: reconnecting (unhealthy after 45 s)"),
            (46.0, logging.WARNING, "unhealthy: not connected to Discord"),
        ):
            caplog.clear()
            beat = tmp_path / f"heartbeat-{ago:.0f}"
            client = LostAfterOneBeat(ago)
            monkeypatch.setattr(health, "time", SimpleNamespace(time=client.clock))
            await health.keep_heartbeat(client, store, beat, interval=0)  # type: ignore[arg-type]
            logged = [(r.levelno, r.getMessage()) for r in caplog.records]
            assert logged[1:] == [(level, said)], logged
            healthy, why = check_heartbeat(beat, now=client.clock())
            assert healthy is (level == logging.INFO), why
    finally:
        await store.close()


async def test_a_refused_mention_reply_whose_server_check_loses_the_connection_logs_one_line(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Told a mention's reply is refused as Missing Access, the bot asks Discord for the server
    (is it still a member?). A dropped connection on that question (aiohttp's
    ServerDisconnectedError, which discord.py lets through) escaped to discord.py's traceback
    log and no line said why the reply was lost. Now it is read as Discord failing: the
    permissions warning, as before, and no traceback."""
    fake = scene.fake
    del scene.guild.members[fake.bot.id]
    fake.drop_next("GET", "/guilds/{guild_id}", times=2)  # aiohttp retries a GET once
    async with warned("cannot reply to a mention") as said:
        await fake.user_message(scene.alice, scene.channel, f"<@{fake.bot.id}> what is rag")
    [line] = [r.getMessage() for r in said if "cannot reply to a mention" in r.getMessage()]
    assert "needs View Channel" in line, line
    bots = [r for r in said if r.name.startswith(("bot", "discord"))]  # not the fake's server
    assert [r for r in bots if r.levelno >= logging.ERROR or r.exc_info] == [], bots
    assert [f.status for f in fake.faults.served if f.path == "/guilds/{guild_id}"] == [None] * 2
    assert "missing_access" in [v.kind for v in fake.pop_violations()]
