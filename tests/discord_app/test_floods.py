"""Floods of members' messages and the event loop (tests/outsider/PLAN.md, "Floods and a form
outlived (flood34)"): one server's waiting messages do not hold another server's back by more
than the search under way (asserted by the order the worker searched them in, not by time), and
what the bot built at start is left out of the garbage collector's full collections while it
runs, which were the longest stalls left under a flood (bench/loop_lag_bench.py)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from bot import collector
from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.explain import BUSY
from bot.discord_app.member_searches import MemberSearches
from bot.search.index import SearchIndex
from bot.storage import Store

from .conftest import Scene, StartBot
from .helpers import embed_of
from .test_member_searches import LONG_TEXT, STUCK, HeldSearch

FLOOD = 6  # one server's mentions waiting at once (under MOST_WAITING)


async def test_a_flooded_servers_waiting_mentions_let_another_servers_mention_through(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Server A's members post FLOOD long mentions at once; while all of them wait for the
    worker (the first held in its search), server B's member posts one. B's is searched next,
    before A's second: a flooded server waits behind itself, not others behind it."""
    fake, searches = scene.fake, bot.state.member_searches
    held = HeldSearch(monkeypatch)
    searched: list[str] = []  # whose text the worker searched, in order (A0..A5, B)
    search = SearchIndex.search

    def noted(index: SearchIndex, text: str, *args: Any, **kwargs: Any) -> Any:
        searched.append(text.split(" ", 1)[0])
        return search(index, text, *args, **kwargs)

    monkeypatch.setattr(SearchIndex, "search", noted)
    asked: Counter[int] = Counter()  # each server's mentions handed to the worker so far
    all_waiting, other_asked = asyncio.Event(), asyncio.Event()
    run = searches.run

    async def counted(scope: int, work: Callable[..., Any], *args: object) -> Any:
        asked[scope] += 1
        if asked[scene.guild.id] == FLOOD:
            all_waiting.set()
        if scope == scene.other_guild.id:
            other_asked.set()
        return await run(scope, work, *args)  # queued (or in the worker) before it yields

    monkeypatch.setattr(searches, "run", counted)
    mention = fake.bot.mention
    for n in range(FLOOD):
        member = (scene.alice, scene.bob)[n % 2]
        await fake.user_message(member, scene.channel, f"{mention} A{n} {LONG_TEXT}")
    assert await asyncio.to_thread(held.started.wait, STUCK)  # one of A's holds the worker
    await asyncio.wait_for(all_waiting.wait(), STUCK)  # A1..A5 queued behind it
    await fake.user_message(scene.alice, scene.other_channel, f"{mention} B {LONG_TEXT}")
    await asyncio.wait_for(other_asked.wait(), STUCK)
    held.released.set()
    card = await fake.wait_for_channel_message(scene.other_channel)
    assert embed_of(card)["title"] == "KV Cache"
    for _ in range(FLOOD):
        assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"
    # The one held first, then B's, then the rest of A's (in whatever order A's came in).
    assert searched[1] == "B", searched
    assert sorted(searched) == sorted([f"A{n}" for n in range(FLOOD)] + ["B"])


async def test_what_the_bot_built_at_start_is_left_out_of_full_collections_while_it_runs(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every full collection walked all the bot holds, the modules and the glossary included,
    holding the event loop: under a flood on a loaded machine, the longest stalls (0.3-0.9 s).
    Once connected, what the process holds is set aside (`gc.freeze`). A glossary reload gives
    it back (the old glossary dies in reference cycles, which only the collector frees: held
    out, it would stay for good), as does a stop. `Looped` stands for such a cycle."""
    set_aside = asyncio.Event()

    def noted() -> None:
        collector_set_aside()
        set_aside.set()

    collector_set_aside = collector.set_aside
    monkeypatch.setattr(collector, "set_aside", noted)
    looped = Looped()
    gone = weakref.ref(looped)
    async with start_bot(store) as bot:
        await asyncio.wait_for(set_aside.wait(), STUCK)  # on_ready, once connected
        assert gc.is_tracked(bot.state)
        assert not any(o is bot.state for o in gc.get_objects())  # out of every generation
        del looped
        gc.collect()
        assert gone() is not None  # set aside: not even a full collection looks at it
        assert bot.state.reload().startswith("reloaded")
        gc.collect()
        assert gone() is None  # given back at the reload: a dropped glossary goes
        assert any(o is bot.state for o in gc.get_objects())
    assert gc.get_freeze_count() == 0  # stopped: nothing left out


class Looped:
    """An object in a reference cycle, as a glossary's entries are."""

    def __init__(self) -> None:
        self.me = self


async def test_a_server_at_its_cap_is_told_of_in_the_log_once_and_again_after_it_drained(
    scene: Scene,
    bot: GlossaryBot,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A server with MOST_WAITING messages waiting has more refused: its mentions unanswered in
    public (an answer each would add to the flood), Explain terms told to try again. The
    operator was told nothing. Now one line names the server, once while it stays at its cap."""
    fake = scene.fake
    bot.state.member_searches = MemberSearches(most_waiting=1)
    held = HeldSearch(monkeypatch)
    mention = fake.bot.mention
    await fake.user_message(scene.bob, scene.channel, f"{mention} {LONG_TEXT}")  # held
    assert await asyncio.to_thread(held.started.wait, STUCK)
    for _ in range(3):  # refused, each: its Explain terms told to try again
        said = await fake.user_message(scene.bob, scene.channel, "kv cache and rag")
        busy = await (
            await fake.message_command(scene.alice, "Explain terms", said)
        ).final_message()
        assert busy["content"] == BUSY
    full = [r.getMessage() for r in caplog.records if "the most one server may" in r.getMessage()]
    assert full == [
        f"server {scene.guild.id}: 1 members' messages to read (mentions, replies, Explain "
        "terms) waiting, the most one server may have: more are refused until some are done "
        "(a flood?)"
    ]
    assert all(r.levelname == "WARNING" for r in caplog.records if r.getMessage() in full)
    held.released.set()
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"
    held.released.clear()
    held.started.clear()
    await fake.user_message(scene.bob, scene.channel, f"{mention} {LONG_TEXT}")  # held again
    assert await asyncio.to_thread(held.started.wait, STUCK)
    said = await fake.user_message(scene.bob, scene.channel, "kv cache and rag")
    busy = await (await fake.message_command(scene.alice, "Explain terms", said)).final_message()
    assert busy["content"] == BUSY
    held.released.set()
    again = [r.getMessage() for r in caplog.records if "the most one server may" in r.getMessage()]
    assert again == full * 2  # a new flood, a new line
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"
