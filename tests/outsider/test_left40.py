"""Leftovers (tests/outsider/PLAN.md, "Leftovers (left40)"): a mention's aside in words, ...

Through the real bot (discord.py) against the fake Discord, on real SQLite files."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import discord
import pytest

from bot.discord_app import replays
from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary
from bot.limits import SELECT_OPTION_TEXT
from bot.storage import Store
from tests.discord_app.helpers import embed_of, selects
from tests.discord_app.test_member_searches import STUCK
from tests.ops.test_metrics import metrics_port, scrape
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_waited
from tests.resilience.conftest import StartBot

from .conftest import Scene
from .test_left36 import read_again
from .test_readme35 import _aliases, _database_with_alias

RAG = "Retrieval-Augmented Generation (RAG)"
SRAM = "Static Random-Access Memory"


async def _answer(scene: Scene, said: str) -> dict[str, object]:
    await scene.fake.user_message(scene.alice, scene.channel, said)
    return await scene.fake.wait_for_channel_message(scene.channel)


def _title(answer: dict[str, object]) -> str | None:
    embeds = answer["embeds"]
    assert isinstance(embeds, list)
    return embeds[0]["title"] if embeds else None


async def test_a_mention_with_an_aside_in_words_answers_the_term(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Leftover 1: "@Glossary rag, bob asked" and "@Glossary rag for bob" were searched whole
    and offered "Did you mean Retrieval-Augmented Generation?" where "@Glossary rag" opens its
    card: the words after the term (who asked, for whom, "pls") are said about the question, not
    in it. Now they are set aside when the whole finds no card and the term alone opens the card
    the whole offered first. A question about the term ("rag, how does it work") is read whole
    as before, and "embeddings for search" keeps its own offers (the words after "for" there are
    what is asked). With another member named first, "thanks!" after the bot's mention is no
    question (review38): the words before it are."""
    fake = scene.fake
    me, bob = fake.bot.mention, scene.bob.mention
    for said in (
        f"{me} rag, bob asked",
        f"{me} rag for bob",
        f"{me} rag pls",
        f"{me} what's rag, asking for a friend",
        f"{me} rag? bob asked",
        f"{me} rag for bob pls",
        f"{me} rag for my team",
        f"{me} moe, bob is asking",
        f"{me} for bob: rag",
        f"{me} rag, how does it work",
        f"{bob} what's rag {me} thanks!",
    ):
        answer = await _answer(scene, said)
        expected = "Mixture of Experts (MoE)" if "moe" in said else RAG
        assert _title(answer) == expected, (said, answer["content"])
    # "for" then what is asked about: the whole's offers, not Embeddings' card
    answer = await _answer(scene, f"{me} embeddings for search")
    assert _title(answer) is None, answer
    assert str(answer["content"]).startswith("Did you mean"), answer["content"]
    # a miss with an aside echoes the member's whole words, as before
    answer = await _answer(scene, f"{me} zorbly frimble, bob asked")
    assert str(answer["content"]).startswith("No entry for “zorbly frimble, bob asked”"), answer


def _renamed(glossary: Glossary, old: str, new: str) -> Glossary:
    """`glossary` with entry `old` known as `new` (its related terms' links too): an operator's
    glossary may hold ids of any length (check asks only for a slug)."""

    def renamed(entry_id: str) -> str:
        return new if entry_id == old else entry_id

    entries = tuple(
        e.model_copy(update={"id": renamed(e.id), "related": tuple(map(renamed, e.related))})
        for e in glossary
    )
    return Glossary(entries, glossary.sources)


async def test_the_stats_menu_names_the_target_of_a_long_miss_beside_a_long_id(
    scene: Scene, start_bot: StartBot, store: Store, glossary: Glossary
) -> None:
    """Leftover 2: a long miss's option label ("“what exactly is static random acess memory and
    how is it different …” → Static Random-Access Memory") was cut at 100 characters, its target
    lost (only in the description); and an entry id of 85 characters or more left no room for
    any of a long miss beside it in the option's value (100 characters), so the miss was not
    offered. Now the label cuts the miss and keeps " → <term>"; a long id is named in the value
    by its digest, and picking the option adds the whole miss to that entry."""
    long_id = "static-random-access-memory-" + "-".join(["cell"] * 15)
    assert len(long_id) >= 85
    served = _renamed(glossary, "static-random-access-memory", long_id)
    miss = (
        "what exactly is static random acess memory and how is it different from the other kind "
        "of memory chi"
    )
    short = "static random acess memry"
    fake = scene.fake
    async with start_bot(store, glossary=served):
        for said in (miss, short):
            store.record_miss(scene.guild.id, said)
        shown = await fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
        message = await shown.final_message()
        [menu] = selects(message)
        options = {o["label"]: o for o in menu["options"]}
        assert len(options) == 2, options
        for label, option in options.items():
            assert label.endswith(f"” → {SRAM}"), label
            assert len(label) <= SELECT_OPTION_TEXT
            assert len(option["value"]) <= SELECT_OPTION_TEXT
        [long_label] = [label for label in options if label.startswith(f"“{miss[:40]}")]
        value = options[long_label]["value"]
        picked = await fake.select(scene.moderator, message, menu["custom_id"], [value])
        answer = (await picked.final_message())["content"]
        assert answer.startswith(f"Added: “{miss}” now opens **{SRAM}"), answer


def test_a_replay_after_more_than_ten_thousand_events_is_still_dropped() -> None:
    """Leftover 3: the ids read were the last 10,000, some 10 s of a busy bot's messages (every
    server message reaches it), so an event replayed after a minute's outage was read again.
    Now an id is remembered for REMEMBERED_FOR seconds after it arrived, however many came
    since; then forgotten (a session is resumed, and replays, only within minutes)."""
    now = [0.0]
    seen = replays.RecentIds(clock=lambda: now[0])
    assert seen.first(1)
    for event_id in range(2, 50_002):  # 50,000 more in 50 s
        now[0] += 0.001
        assert seen.first(event_id)
    assert not seen.first(1)
    assert len(seen) == 50_001
    now[0] = 50.0 + replays.REMEMBERED_FOR + 1
    assert seen.first(50_003)
    assert len(seen) == 1  # the rest forgotten
    assert seen.first(1)


async def test_a_mention_replayed_within_the_window_is_answered_once(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Leftover 3 through the bot: a mention replayed REMEMBERED_FOR less a second after it
    was read is dropped; one replayed later is read again (no session resumes that late)."""
    now = [0.0]
    monkeypatch.setattr(replays, "clock", lambda: now[0])
    fake = scene.fake
    said = await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} kv cache")
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"
    now[0] += replays.REMEMBERED_FOR - 1
    await read_again(fake, said)
    assert [m.kind for m in fake.sent_messages] == ["channel_message"], fake.sent_messages
    now[0] += 2
    await fake.redeliver_message(said)
    assert embed_of(await fake.wait_for_channel_message(scene.channel))["title"] == "KV Cache"


def test_restores_keep_the_last_three_earlier_copies(tmp_path: Path) -> None:
    """Leftover 4: every restore kept the database it replaced, and each earlier kept copy
    moved to `….before-restore.N`: none was ever removed, a whole database each. Now the three
    highest numbers stay beside the copy just made, older ones are removed and named in a line
    of their own; a copy being restored from is never removed, nor the one just made."""
    db, first, second = tmp_path / "glossary-bot.db", tmp_path / "a.db", tmp_path / "b.db"
    _database_with_alias(tmp_path, db, "qq live")
    _database_with_alias(tmp_path, first, "qq first")
    _database_with_alias(tmp_path, second, "qq second")
    kept = Path(f"{db}.before-restore")

    def restore(backup: Path) -> str:
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db)
        )
        assert status == 0, output
        return output

    for n in range(4):  # a, b, a, b: .1 .2 .3 kept, nothing removed
        output = restore((first, second)[n % 2])
        assert "removed" not in output, output
    Path(f"{kept}.1-wal").write_bytes(b"")  # a log beside the oldest goes with it
    output = restore(first)  # the 5th: .4 made, .1 removed
    assert f"the copy an earlier restore kept is now {kept}.4" in output, output
    assert (
        "removed the oldest copies earlier restores kept (3 are kept beside the one just made): "
        f"{kept}.1"
    ) in output, output
    names = sorted(p.name for p in tmp_path.iterdir() if ".before-restore" in p.name)
    assert names == [f"{db.name}.before-restore{n}" for n in ("", ".2", ".3", ".4")], names
    assert _aliases(tmp_path, kept) == ["qq second"]  # the one just made: the 4th's result
    # restoring from the oldest kept copy: it stays (it is in place now, and still beside it)
    output = restore(Path(f"{kept}.2"))
    assert "removed" not in output, output  # .2 to .5 now: .2 is the one restored from
    assert Path(f"{kept}.2").exists()
    assert _aliases(tmp_path, db) == _aliases(tmp_path, Path(f"{kept}.2"))


async def test_the_entries_metric_counts_what_the_log_says_is_served(
    scene: Scene, tmp_path: Path
) -> None:
    """Leftover 5: `glossary_entries{source}` summed to the definitions (355: an entry defined
    by two sources counted twice) where the log says "serving 300 entries". Now
    `glossary_entries` is the entries served, unlabelled, the log's number; the definitions per
    source are `glossary_definitions{source}`."""
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, METRICS_PORT="0") as bot:
        port = await metrics_port(bot)
        await bot.wait_for_output(r"serving \d+ entries")
        values = await asyncio.to_thread(scrape, port)
        served = re.search(r"serving (\d+) entries", bot.output)
        assert served is not None, bot.output
        assert values["glossary_entries", ()] == int(served[1])
        definitions = {k: v for k, v in values.items() if k[0] == "glossary_definitions"}
        assert values["glossary_definitions", (("source", "foundations"),)] > 100
        assert sum(definitions.values()) > int(served[1])  # some entries have two sources
        assert not [k for k in values if k[0] == "glossary_entries" and k[1]]
        assert await bot.stop() == 0


async def test_a_replied_to_message_comes_one_level_deep(scene: Scene, bot: GlossaryBot) -> None:
    """Leftover 6: the fake's copy of a replied-to message (`referenced_message`) kept that
    message's own `referenced_message`, a chain as deep as the replies. Discord nests one level:
    the spec's `referenced_message` is a BasicMessageResponse, which has none. Now the fake
    sends it so, in a member's reply (the gateway event) and in the bot's own (its REST answer):
    discord.py sees the reference of the replied-to message, not what it replied to."""
    fake = scene.fake
    seen: asyncio.Queue[discord.Message] = asyncio.Queue()
    bot.add_listener(seen.put, "on_message")
    me = fake.bot.mention
    first = await fake.user_message(scene.bob, scene.channel, f"{me} rag")
    await fake.wait_for_channel_message(scene.channel)
    second = await fake.user_message(scene.alice, scene.channel, f"{me} lora", reply_to=first)
    assert "referenced_message" not in second["referenced_message"]  # `first` was no reply
    await fake.wait_for_channel_message(scene.channel)
    third = await fake.user_message(scene.bob, scene.channel, f"{me} kv cache", reply_to=second)
    assert "referenced_message" not in third["referenced_message"], third
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["referenced_message"]["id"] == third["id"]
    assert "referenced_message" not in answer["referenced_message"], answer
    async with asyncio.timeout(STUCK):
        while (message := await seen.get()).id != int(third["id"]):
            pass
    replied = message.reference.resolved if message.reference else None
    assert isinstance(replied, discord.Message)
    assert replied.id == int(second["id"])
    assert replied.reference is not None
    assert replied.reference.message_id == int(first["id"])
    assert replied.reference.resolved is None  # not sent, as on Discord
