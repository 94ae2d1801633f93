"""Review of last session's features (task review29, PLAN.md "Review of last session's features
(review29)"): the worker reading members' messages, Discord's clock, server terms titled as
bundled entries. The real bot (discord.py) against the fake Discord on real SQLite files."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.explain import BUSY
from bot.search.index import SearchIndex
from tests.discord_app.helpers import JSON, define, embed_of, is_ephemeral, selects
from tests.discord_app.term_commands import TERM, open_add, run_import, submit
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import stored_lookups, unhurried

from .conftest import Scene

STUCK = 30.0  # seconds a held search waits for its release: a bound on a hang only
NO_COOLDOWN = {"COOLDOWN_USES": "100000", "COOLDOWN_SECONDS": "1"}
# A mention under Discord's 2,000 characters asking about a term in a long story: search reads
# all of it (about 100-300 ms on this machine), so 1,000 of them keep the worker busy minutes.
STORY = "what is a kv cache? " + (
    "we kept asking because the answers in the thread went round in circles and nobody "
    "could say it plainly. " * 18
)


async def test_one_interaction_stamped_in_the_future_makes_no_later_one_late(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W8: the clocks' offset is the fastest arrival of the last 10 minutes. One interaction
    whose id says Discord sent it an hour from now (a clock of Discord's ahead, once) became
    that fastest: every later interaction then looked an hour late, for 10 minutes."""
    fake = scene.fake
    await define(fake, scene.alice, "rag", scene.channel)  # the clocks' offset, on time
    ahead = await fake.autocomplete(
        scene.bob,
        "define",
        {"term": "kv"},
        focused="term",
        channel=scene.channel,
        created_ago=-3600.0,
    )
    assert await ahead.choices()  # answered
    handle, card = await define(fake, scene.alice, "lora", scene.channel)
    assert handle.callback is not None, handle.records  # answered in the interaction
    assert embed_of(card)["title"].startswith("LoRA"), card
    typed = await fake.autocomplete(
        scene.alice, "define", {"term": "kv"}, focused="term", channel=scene.channel
    )
    assert await typed.choices()


@pytest.mark.parametrize("ahead", [3600.0, -3600.0])
async def test_discords_clock_an_hour_off_this_machines_makes_nothing_late(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch, ahead: float
) -> None:
    """W7: every id stamped an hour ahead of (or behind) this machine's clock: the offset is
    the clocks', nothing is late."""
    wall = time.time
    monkeypatch.setattr(
        "tests.fake_discord.models.time", SimpleNamespace(time=lambda: wall() + ahead)
    )
    fake = scene.fake
    for term in ("rag", "lora", "kv cache"):
        handle, card = await define(fake, scene.alice, term, scene.channel)
        assert handle.callback is not None, handle.records  # answered in the interaction
        assert embed_of(card)["title"], card
    typed = await fake.autocomplete(
        scene.alice, "define", {"term": "kv"}, focused="term", channel=scene.channel
    )
    assert await typed.choices()


async def test_the_first_interaction_held_up_an_hour_makes_the_next_on_time(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W9: the first interaction after start is taken as on time, as clock29 says (here held up
    an hour: Discord refuses its answer, as it would have before); the next ordinary one is
    answered in the interaction."""
    fake = scene.fake
    first = await fake.slash(
        scene.alice, "define", {"term": "rag"}, channel=scene.channel, held_up=3600
    )
    await first.response()  # sent, and refused: past Discord's 3 s
    assert [v.kind for v in fake.pop_violations()] == ["unknown_interaction"]
    handle, card = await define(fake, scene.bob, "lora", scene.channel)
    assert handle.callback is not None, handle.records
    assert embed_of(card)["title"].startswith("LoRA"), card


def flooding_servers(fake: FakeDiscord, count: int) -> list[tuple[FakeChannel, FakeUser]]:
    """`count` more servers (known to the bot when it connects), each a channel and a member."""
    servers = []
    for n in range(count):
        guild = fake.add_guild(f"Flood {n}")
        member = fake.add_user(f"raider{n}")
        guild.add_member(member)
        servers.append((guild.add_text_channel("chat"), member))
    return servers


async def flood(fake: FakeDiscord, servers: list[tuple[FakeChannel, FakeUser]], n: int) -> None:
    """`n` long mentions in each server, taking turns, nobody waiting for an answer."""
    fake.settle_before_actions = False
    for _ in range(n):
        for channel, member in servers:
            await fake.user_message(member, channel, f"{fake.bot.mention} {STORY}")


def cards_in_channels(fake: FakeDiscord) -> int:
    return sum(1 for m in fake.sent_messages if m.kind == "channel_message" and m.message["embeds"])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_while_20_servers_each_have_50_searches_waiting_is_clean(
    scene: Scene, tmp_path: Path, sig: int
) -> None:
    """W1, W2: 50 long mentions waiting in each of 20 servers (the worker's cap), then SIGTERM
    or Ctrl-C. The stop waited for the answers under way until its deadline, then closed the
    connection while the worker went on: a search finished after that answered into a closed
    session, an ERROR and two tracebacks ("Session is closed") per message. Now searches not
    yet begun are not run once the bot stops: a clean exit, every card shown counted."""
    fake = scene.fake
    servers = flooding_servers(fake, 20)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **NO_COOLDOWN) as bot:
        await flood(fake, servers, 50)
        await fake.waiter.wait_for(
            lambda: cards_in_channels(fake) >= 20, "the first answers", within=120
        )
        bot.send_signal(sig)
        assert await bot.stop(sig=None) == 0, bot.output
    assert "Traceback" not in bot.output, bot.output
    assert " ERROR " not in bot.output, bot.output
    cards = cards_in_channels(fake)
    assert cards < 1_000  # stopped mid-flood
    assert stored_lookups(scene.db_path) == cards
    assert fake.pop_violations() == []


async def test_a_reload_during_a_flood_serves_on(scene: Scene, tmp_path: Path) -> None:
    """W3: SIGHUP while the worker holds 20 servers' floods: reloaded, the floods answered, and
    another server's /define and mention answered meanwhile."""
    fake = scene.fake
    # What is answered through a flood and a reload, not how fast: at load 9 the /define after
    # the reload was answered past Discord's 3 s (10062), its card never sent.
    unhurried(fake)
    servers = flooding_servers(fake, 20)
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, **NO_COOLDOWN) as bot:
        await flood(fake, servers, 5)
        await fake.waiter.wait_for(
            lambda: cards_in_channels(fake) >= 10, "the first answers", within=120
        )
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output(r"glossary reloaded: \d+ entries", within=60)
        _, card = await define(fake, scene.alice, "lora", scene.other_channel)
        assert embed_of(card)["title"].startswith("LoRA"), card
        await fake.waiter.wait_for(
            lambda: cards_in_channels(fake) >= 100, "every flood answered", within=300
        )
        await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} rag")
        mention = await fake.wait_for_channel_message(scene.other_channel)
        assert embed_of(mention)["title"] == "Retrieval-Augmented Generation (RAG)"
        assert await bot.stop() == 0, bot.output
    assert "Traceback" not in bot.output, bot.output
    assert stored_lookups(scene.db_path) == cards_in_channels(fake) + 1  # and the /define


async def test_a_search_that_raises_in_the_worker_frees_its_servers_turn(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """W4: a mention's and Explain terms' search raising inside the worker: the member gets the
    short error line (no traceback), and the server's next message is read."""
    fake = scene.fake

    def failing(real: Any) -> Any:
        def search(index: SearchIndex, text: str, *args: Any, **kwargs: Any) -> Any:
            if "boom" in text:
                raise ValueError("a bug in search")
            return real(index, text, *args, **kwargs)

        return search

    for name in ("search", "find_named_terms"):
        monkeypatch.setattr(SearchIndex, name, failing(getattr(SearchIndex, name)))
    await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} boom kv cache")
    said = await fake.wait_for_channel_message(scene.channel)
    assert said["content"].startswith("Something went wrong on my side (error id"), said
    assert "Traceback" not in said["content"]
    assert not said["embeds"]
    boom = await fake.user_message(scene.bob, scene.channel, "boom: kv cache and rag")
    handle = await fake.message_command(scene.alice, "Explain terms", boom)
    failed = await handle.final_message()
    assert is_ephemeral(failed)
    assert failed["content"].startswith("Something went wrong on my side"), failed
    # The server's turn was given back: its next mention and Explain terms are read.
    await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} kv cache")
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"
    said = await fake.user_message(scene.bob, scene.channel, "kv cache and rag")
    listing = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    assert embed_of(listing)["title"] == "2 glossary terms in this message"
    assert bot.state.member_searches.idle()


def hold_searches(
    monkeypatch: pytest.MonkeyPatch, release: threading.Event, searched: list[str]
) -> None:
    """Search records each text it is given, and one starting "hold" waits (in the worker) until
    `release` is set: the worker stays busy while a test fills a server's queue."""
    real = SearchIndex.search

    def search(index: SearchIndex, text: str, *args: Any, **kwargs: Any) -> Any:
        searched.append(text)
        if text.startswith("hold"):
            release.wait(STUCK)
        return real(index, text, *args, **kwargs)

    monkeypatch.setattr(SearchIndex, "search", search)


async def test_a_server_at_its_50_waiting_searches_is_refused_more_others_are_not(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """W5: the worker's cap as shipped (50 a server): the 51st mention is not answered, the
    server's Explain terms is told to try again, another server's is answered; once the 50
    are done, the server is read again and nothing of it is left waiting."""
    fake, searches = scene.fake, bot.state.member_searches
    assert searches.most_waiting == 50
    release = threading.Event()

    hold_searches(monkeypatch, release, [])
    entered: Counter[int] = Counter()
    full, refused = asyncio.Event(), asyncio.Event()
    run = searches.run

    async def counted(scope: int, search: Any, *args: Any) -> Any:
        entered[scope] += 1
        if entered[scope] == 50:
            full.set()  # the 50th is counted in `run` before this task next waits
        found = await run(scope, search, *args)
        if found is None:
            refused.set()
        return found

    monkeypatch.setattr(searches, "run", counted)
    await define(fake, scene.alice, "rag", scene.other_channel)  # both servers read
    await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} hold kv cache")
    for _ in range(49):
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} kv cache")
    await full.wait()
    last = await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} lora")
    await refused.wait()
    said = await fake.user_message(scene.bob, scene.channel, "kv cache and rag")
    busy = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    assert busy["content"] == BUSY
    said = await fake.user_message(scene.alice, scene.other_channel, "kv cache and rag")
    elsewhere = await fake.message_command(scene.alice, "Explain terms", said)
    release.set()
    listing = await elsewhere.final_message()
    assert embed_of(listing)["title"] == "2 glossary terms in this message"

    def answers() -> list[JSON]:
        return [
            m.message
            for m in fake.sent_messages
            if m.kind == "channel_message" and m.message["channel_id"] == str(scene.channel.id)
        ]

    await fake.waiter.wait_for(lambda: len(answers()) >= 50, "the 50 answers")
    assert {embed_of(m)["title"] for m in answers()} == {"KV Cache"}  # none is LoRA's
    assert all(m["message_reference"]["message_id"] != last["id"] for m in answers())
    await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} lora")
    await fake.waiter.wait_for(lambda: len(answers()) == 51, "the next mention's answer")
    assert embed_of(answers()[-1])["title"].startswith("LoRA"), answers()[-1]
    assert searches.idle()


async def test_explain_terms_on_4000_characters_naming_a_hundred_terms(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W10: a 4,000-character message (Nitro's most) naming a hundred glossary terms: one private
    answer, 25 listed (a menu's most), within Discord's limits (the fake checks them)."""
    fake = scene.fake
    titles = [entry.title for entry in bot.state.glossary.entries[:100]]
    text = ("We covered " + ", ".join(titles) + ". ") * 3
    text = text[:4000]
    said = await fake.user_message(scene.bob, scene.channel, text)
    handle = await fake.message_command(scene.alice, "Explain terms", said)
    listing = await handle.final_message()
    assert is_ephemeral(listing)
    assert embed_of(listing)["title"] == "25 glossary terms in this message", listing
    assert len(selects(listing)[0]["options"]) == 25
    assert fake.pop_violations() == []


RAID_TERMS = """
[[entries]]
id = "caches"
title = "KV Caches"
category = "Fundamentals"
definition = "The guild's hidden stashes of key items and valuables along the raid route."

[[entries]]
id = "zorb"
title = "Zorb"
aliases = ["checkpoints"]
category = "Fundamentals"
definition = "The save points in the Obsidian Shard after the third boss."
"""


async def test_a_server_term_named_as_the_other_number_of_a_bundled_name_is_refused(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W11: a server term titled "Check-point" or "Model checkpoint" (a bundled entry's name
    spelled otherwise) words that entry: one card. Titled "KV Caches", or with the other name
    "checkpoints", it was taken as a term of its own: `/define kv caches` opened the stash,
    `/define kv cache` the bundled card (search reads the two alike, and `/alias add` refuses
    "checkpoints" as Checkpoint's). Now refused, naming the bundled name; the other number of
    the entry the term words stays allowed."""
    fake = scene.fake
    answer = await run_import(scene, fake.add_attachment("raid.toml", RAID_TERMS))
    assert answer.startswith("Nothing was imported"), answer
    assert "“KV Caches” is read by search as “KV Cache”" in answer, answer
    assert "“checkpoints” is read by search as “Checkpoint”" in answer, answer
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    refused = await submit(scene, scene.moderator, opened, {**TERM, "title": "Checkpoints"})
    assert "“Checkpoints” is read by search as “Checkpoint”" in refused["content"], refused
    _, card = await define(fake, scene.alice, "kv caches", scene.channel)
    assert embed_of(card)["title"] == "KV Cache"
    # Its own entry's other number is no other card's name: kept.
    same = RAID_TERMS.replace('title = "KV Caches"', 'title = "KV Cache"\naliases = ["kv caches"]')
    same = same.split('[[entries]]\nid = "zorb"')[0]
    answer = await run_import(scene, fake.add_attachment("same.toml", same))
    assert answer.startswith("Imported: 1 added"), answer
    _, card = await define(fake, scene.alice, "kv caches", scene.channel)
    assert "hidden stashes" in embed_of(card)["description"], card


async def test_a_server_left_with_searches_waiting_has_them_dropped_not_run(
    scene: Scene,
    bot: GlossaryBot,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """W12: the bot removed from a server (GUILD_DELETE) with 49 of its mentions waiting behind
    another server's search: each was still searched (for nobody), its reply refused by Discord
    (403 Missing Access, counted against the bot's invalid requests) and a WARNING logged: 49
    of each per server, minutes of the worker for 20 servers. Now they are dropped, and the
    worker keeps nothing of the server."""
    fake, searches = scene.fake, bot.state.member_searches
    release = threading.Event()
    searched: list[str] = []

    hold_searches(monkeypatch, release, searched)
    dropped: Counter[int] = Counter()
    all_dropped = asyncio.Event()
    run = searches.run

    async def counted(scope: int, search: Any, *args: Any) -> Any:
        found = await run(scope, search, *args)
        if found is None and scope == scene.guild.id:
            dropped[scope] += 1
            if dropped[scope] == 49:
                all_dropped.set()
        return found

    monkeypatch.setattr(searches, "run", counted)
    await define(fake, scene.alice, "rag", scene.other_channel)  # both servers read
    await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} hold kv cache")
    for _ in range(49):
        await fake.user_message(scene.bob, scene.channel, f"{fake.bot.mention} what is a kv cache")
    del scene.guild.members[fake.bot.id]
    await fake.gateway.dispatch(
        "GUILD_DELETE", {"id": str(scene.guild.id)}, guild_id=scene.guild.id
    )
    await define(fake, scene.alice, "lora", scene.other_channel)  # read after GUILD_DELETE
    assert bot.get_guild(scene.guild.id) is None
    async with asyncio.timeout(STUCK):  # a bound on a hang only: before, they were searched
        release.set()
        await all_dropped.wait()
    answer = await fake.wait_for_channel_message(scene.other_channel)
    assert embed_of(answer)["title"] == "KV Cache"
    assert "what is a kv cache" not in searched
    assert fake.pop_violations() == []  # no reply refused for a server the bot is not in
    assert not [r for r in caplog.records if "no longer in server" in r.getMessage()]
    assert searches.idle()
