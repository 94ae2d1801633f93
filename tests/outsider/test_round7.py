"""What a seventh round of outside testing found through `glossary-bot run`, the command line
and the real client against the fake Discord (tests/outsider/PLAN.md, round 7)."""

from __future__ import annotations

import asyncio
import copy
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import is_ephemeral, selects
from tests.discord_app.test_stats import stats
from tests.fake_discord import FakeDiscord
from tests.fake_discord.interactions import MESSAGE_COMPONENT, base_payload
from tests.resilience.botproc import BotProcess, import_aliases
from tests.resilience.helpers import add_alias, stored_aliases
from tests.resilience.test_discord_faults import card_title

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


def title_of(message: dict[str, Any]) -> str | None:
    embeds = message.get("embeds") or [{}]
    return embeds[0].get("title")


# How people wrap a term in a chat: Discord markup around it that names nothing.
MARKED_UP_RAG = [
    "```py\nrag```",  # a code fence with its language
    "```\nrag\n```",
    "@everyone rag",
    "@here rag",
    "<@123> rag",
    "<@!123> rag",
    "<@&55> rag",
    "<#77> rag",
    "<:thinking:123> rag",
    "rag <a:party:456>",
    "# rag",  # a heading
    "-# rag",  # subtext
    "[rag](https://example.com/rag)",  # a masked link
]


@pytest.mark.parametrize("query", MARKED_UP_RAG)
async def test_define_reads_a_term_inside_discord_markup(
    scene: Scene, bot: GlossaryBot, query: str
) -> None:
    """Plan lines M1, M5-M7: `/define` of a term beside a mention, a custom emoji, inside a
    fence with its language or under a heading answered "Did you mean", while `**rag**`,
    `||rag||` or "what is rag" got the card."""
    handle = await scene.fake.slash(scene.alice, "define", {"term": query}, channel=scene.channel)
    answer = await handle.final_message()
    assert title_of(answer) == RAG, answer.get("content")


@pytest.mark.parametrize("query", ["@everyone rag", "<:x:123> what is rag?", "```py\nrag```"])
async def test_a_mention_reads_a_term_inside_discord_markup(
    scene: Scene, bot: GlossaryBot, query: str
) -> None:
    """Plan line M8: the same through a mention of the bot; the reply still pings nobody."""
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {query}")
    reply = await fake.wait_for_channel_message(scene.channel)
    assert title_of(reply) == RAG, reply.get("content")
    assert fake.sent_messages[-1].pings == []


@pytest.mark.parametrize("query", ["C#", "what is c#", "<rag>", "@rag"])
async def test_markup_lookalikes_that_are_text_stay_text(
    scene: Scene, bot: GlossaryBot, query: str
) -> None:
    """What is not Discord markup is not taken away: a `#` inside a name, angle brackets that
    are no mention or emoji."""
    handle = await scene.fake.slash(scene.alice, "define", {"term": query}, channel=scene.channel)
    answer = await handle.final_message()
    said = (answer.get("content") or "") + str(title_of(answer))
    assert "Nothing to look up" not in said, said


async def forged_pick(scene: Scene, menu_message: dict[str, Any], values: list[str]) -> str:
    """A selection on `/stats`'s missed-search menu sent as a hand-made interaction, past
    Discord's own check that the values are the menu's: the answer's text (private)."""
    [menu] = selects(menu_message)
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values}
    stored = scene.fake.message(int(menu_message["id"]))
    payload = base_payload(
        scene.fake.world,
        kind=MESSAGE_COMPONENT,
        data=data,
        user=scene.moderator,
        channel=scene.channel,
        message=copy.deepcopy(stored),
    )
    handle = await scene.fake.raw_interaction(payload, target_message_id=int(stored["id"]))
    answer = await handle.final_message()
    assert is_ephemeral(answer)
    return str(answer["content"])


async def test_forged_picks_on_the_missed_search_menu_are_checked_like_alias_add(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line Q10: values the menu never offered. Each is checked as `/alias add` checks
    (the moderator may add any alias anyway); an empty selection answered "Something went wrong
    (error id ...)" with a traceback in the log."""
    store.record_miss(scene.guild.id, "kv chache")
    menu_message = await stats(scene)
    # An id the glossary lacks reads as a term removed since the menu was made (left23, V36).
    assert "no longer in the glossary, so nothing was added" in await forged_pick(
        scene, menu_message, ["nosuch zorb"]
    )
    assert "at most 100 characters" in await forged_pick(scene, menu_message, ["rag " + "x" * 200])
    assert "cannot contain mentions" in await forged_pick(scene, menu_message, ["rag @everyone"])
    assert "empty" in await forged_pick(scene, menu_message, ["rag "])
    said = await forged_pick(scene, menu_message, [])
    assert said == "Pick a missed search from the menu to add it as an alias.", said
    assert stored_aliases(scene.db_path) == []


async def test_alias_add_of_an_alias_another_process_just_removed(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line A2: another process removed `zorb` (RAG) a moment before `/alias add zorb`
    for LoRA, before this bot re-read the server's aliases: the add goes through, stored once,
    pointing at LoRA, and `/define zorb` opens LoRA."""
    fake = scene.fake
    async with start_bot(store, alias_check_interval=3600.0):  # this bot has not seen it yet
        said = await add_alias(fake, scene.moderator, "zorb", "rag", scene.channel)
        assert said.startswith("Added"), said
        other = await Store.open(scene.db_path, flush_interval=None)
        try:
            removed = await other.remove_alias(scene.guild.id, "zorb", scene.moderator.id)
            assert removed is not None
        finally:
            await other.close()
        said = await add_alias(fake, scene.moderator, "zorb", "lora-qlora", scene.channel)
        assert said.startswith("Added"), said
        handle = await fake.slash(scene.alice, "define", {"term": "zorb"}, channel=scene.channel)
        assert title_of(await handle.final_message()) == "LoRA & QLoRA"
    assert stored_aliases(scene.db_path) == [(scene.guild.id, "zorb", "lora-qlora")]


async def test_two_processes_on_one_heartbeat_file_are_told(tmp_path: Path) -> None:
    """Plan line H5: two processes given the same HEARTBEAT_PATH each kept touching it, so
    `health` said "healthy" for both while either one could be down, and neither said a word.
    Now the one that finds the file rewritten under it says so, naming the setting."""
    heartbeat = tmp_path / "heartbeat"
    shared = {"HEARTBEAT_PATH": str(heartbeat), "SHARD_COUNT": "2"}
    first_dir, second_dir = tmp_path / "first", tmp_path / "second"
    first_dir.mkdir()
    second_dir.mkdir()
    async with (
        FakeDiscord(shard_count=2) as fake,
        BotProcess(
            fake, first_dir / "a.db", cwd=first_dir, SHARD_IDS="0", shards=[0], **shared
        ) as first,
        BotProcess(
            fake, second_dir / "b.db", cwd=second_dir, SHARD_IDS="1", shards=[1], **shared
        ) as second,
    ):
        told = r"HEARTBEAT_PATH=.*another process"
        waits = [first.wait_for_output(told, within=40.0), second.wait_for_output(told, 40.0)]
        done, pending = await asyncio.wait(
            [asyncio.ensure_future(w) for w in waits], return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
        line = next(iter(done)).result()
        assert "WARNING" in line, line
        assert str(heartbeat) in line, line


CALLBACK = "/interactions/{interaction_id}/{token}/callback"
CHANNEL_MESSAGES = "/channels/{channel_id}/messages"


def served_posts(scene: Scene, path: str) -> int:
    return sum(1 for f in scene.fake.faults.served if f.path == path)


class LogWatch(logging.Handler):
    """Sets `seen` once a log record's message contains `said` (the bot runs on this loop)."""

    def __init__(self, said: str) -> None:
        super().__init__(logging.WARNING)
        self.said = said
        self.seen = asyncio.Event()
        self.loop = asyncio.get_running_loop()

    def emit(self, record: logging.LogRecord) -> None:
        if self.said in record.getMessage():
            self.loop.call_soon_threadsafe(self.seen.set)


async def logged(said: str, within: float) -> None:
    """Wait (bounded) for a WARNING or worse whose message contains `said`."""
    watch = LogWatch(said)
    logging.getLogger().addHandler(watch)
    try:
        async with asyncio.timeout(within):
            await watch.seen.wait()
    finally:
        logging.getLogger().removeHandler(watch)


async def test_a_discord_outage_is_one_warning_per_answer_and_no_second_post(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Plan line X10: Discord's REST answering 503 for a while. The bot neither hung nor
    stopped and answered once Discord was back (ok), but each answer lost to the outage was an
    ERROR with a traceback for an error id nobody was shown, then a second post of "Something
    went wrong" to the same failing Discord. Now: one WARNING saying Discord failed, no retry
    of our own. (A mention's reply: 503 is not retried by discord.py; an interaction's
    response is, five times over about 25 s.)"""
    fake = scene.fake
    caplog.set_level(logging.WARNING)
    fake.fail_next("POST", CHANNEL_MESSAGES, status=503, times=1000)
    fake.fail_next("POST", CALLBACK, status=503, times=1000)
    mention_lost = asyncio.ensure_future(logged(str(scene.channel.id), within=30.0))
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is rag")
    await mention_lost
    handle = await fake.slash(scene.alice, "define", {"term": "kv cache"}, channel=scene.channel)
    await logged(f"interaction {handle.id}", within=60.0)
    fake.faults.clear()
    # discord.py's own tries within Discord's 3 s (at 0 and 1 s; the next, at 4 s, would come
    # too late: not sent), then the card posted in the channel instead, once (ops12): no
    # "Something went wrong" after either.
    assert served_posts(scene, CALLBACK) == 2
    assert served_posts(scene, CHANNEL_MESSAGES) == 2
    # One per lost answer, and (round 8, H1) one that Discord's API is failing, for `health`.
    said = [(r.name, r.levelname) for r in caplog.records]
    assert said.count(("bot.discord_app.rest_watch", "WARNING")) == 1, caplog.text
    assert [level for name, level in said if not name.endswith("rest_watch")] == [
        "WARNING",
        "WARNING",
    ], caplog.text
    assert all(r.exc_info is None for r in caplog.records), caplog.text
    assert "error id" not in caplog.text
    assert await card_title(scene, "rag") == RAG  # Discord back: answered as ever


async def test_aliases_import_past_the_cap_refuses_the_rest_without_checking_each(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line O5: `aliases import` of one server's 600,000 lines (33 MB) ran past five
    minutes at 400 MB and was killed: every line past the 1,000 cap was still checked for
    clashes against every accepted one (6,000 lines took 25 s, 1,500 took 3 s). Lines past the
    cap are now refused at once, each named; a line already stored still reads "already
    present". (Run within the helper's bounded wait; 20,000 lines took minutes before.)"""
    lines = [
        {"guild_id": scene.guild.id, "alias": f"zq{i}", "entry_id": "rag"} for i in range(20_000)
    ]
    lines.append(dict(lines[0]))  # stored by then: not a refusal
    status, out, err = await asyncio.wait_for(
        import_aliases(lines, scene.db_path, tmp_path), timeout=120
    )
    assert status == 1, (out, err[-500:])
    assert out.strip() == "added 1,000, already present 1, refused 19,000", out
    refused = err.splitlines()
    assert len(refused) == 19_000, err[-500:]
    assert refused[0] == "item 1001: the server has reached its alias limit (1,000)", refused[0]
    assert len(stored_aliases(scene.db_path)) == 1000
