"""What a seventeenth round of outside testing found: scale and a long life, the way a popular
bot lives (thousands of servers, a long run, a year of data), through the real bot against the
fake Discord (tests/outsider/PLAN.md, round 17). Scale numbers here are smaller than the
probes': each test holds the bound the probe found missing, not a speed."""

from __future__ import annotations

import pytest

from bot.discord_app import alias_cache, cooldowns
from bot.storage import Store
from tests.discord_app.conftest import Scene, StartBot
from tests.discord_app.helpers import define, embed_of
from tests.discord_app.test_term_meaning import put_terms
from tests.fake_discord.models import FakeChannel
from tests.search.server_term_meanings import STANDUP_BINGO


def five_servers(scene: Scene) -> list[FakeChannel]:
    """A channel in each of five servers Alice is in: the scene's two and three more."""
    channels = [scene.channel, scene.other_channel]
    for n in range(3):
        guild = scene.fake.add_guild(f"Server {n}")
        guild.add_member(scene.alice)
        channels.append(guild.add_text_channel("general"))
    return channels


async def test_a_bot_keeps_the_indexes_of_its_most_recently_asked_servers_only(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plan lines Y2 and Y9: a bot in 3,000 servers, each with a term of its own, asked once in
    each: its memory grew by 1.3 MB a server and never shrank (1.7 GB after 1,200 servers,
    3.2 GB after 2,400), every server's index of the bundled glossary with its terms kept for
    ever. Now the least recently asked beyond a cap are dropped, and read again when asked."""
    monkeypatch.setattr(alias_cache, "MAX_INDEXED", 2)
    fake = scene.fake
    channels = five_servers(scene)
    for channel in channels:
        await put_terms(store, channel.guild_id or 0, STANDUP_BINGO)
    async with start_bot(store) as bot:
        for channel in channels + channels[:1]:  # the first again, after it was dropped
            _, card = await define(fake, scene.alice, "standup bingo", channel)
            assert embed_of(card)["title"] == "Standup Bingo", card
            assert bot.state.servers.indexed_servers() <= 2


def test_members_busy_past_the_cooldown_tables_size_cost_one_look_per_doubling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Plan line Y10: the per-member cooldown table forgets idle members once it holds 10,000;
    with more than that busy at once (each used `/define` in the last 10 s), every newcomer
    looked at all of them again, on the event loop: 52 ms a newcomer past 10,000 on a loaded
    machine. Now the next look waits until the table has doubled; idle members still go."""
    monkeypatch.setattr(cooldowns, "MAX_USERS", 100)
    limit = cooldowns.UserLimit(5, 10.0)
    looks = 0
    look = limit._forget_idle

    def counted(now: float) -> None:
        nonlocal looks
        looks += 1
        look(now)

    monkeypatch.setattr(limit, "_forget_idle", counted)
    now = 1_000.0  # seconds on the monotonic clock, as the bot counts them
    for member in range(1_000):  # all busy at once
        assert limit.take(member, now) is None
    assert looks <= 4  # at 100, 200, 400 and 800
    later = now + 11.0  # the first 1,000 are idle now
    for member in range(1_000, 1_700):
        assert limit.take(member, later) is None
    assert len(limit._users) <= 700


async def test_the_alias_box_suggests_a_miss_outside_the_most_frequent(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Plan line Y14: a server's missed searches pile up over a long life, and the `/alias add`
    alias box read the 25 most frequent and kept those with the typed text in them: with 2,000
    misses, typing "zq miss 1999" (or any of its text) suggested nothing. Now the database is
    asked for the most frequent misses with the typed text in them, counts still to be written
    included; `%` and `_` typed are plain text."""
    for n in range(30):
        for _ in range(3):
            store.record_miss(scene.guild.id, f"zq often {n}")
    store.record_miss(scene.guild.id, "zq rare one")
    store.record_miss(scene.guild.id, "zq rare 100%")
    await store.flush()
    store.record_miss(scene.guild.id, "zq rare two")  # still buffered
    async with start_bot(store):
        for typed, wanted in (
            ("rare", {"zq rare one", "zq rare two", "zq rare 100%"}),
            ("0%", {"zq rare 100%"}),
            ("r_re", set()),
        ):
            typing = await scene.fake.autocomplete(
                scene.moderator,
                "alias add",
                {"alias": typed},  # the term box still empty: Discord sends no option for it
                focused="alias",
                channel=scene.channel,
            )
            assert {c["value"] for c in await typing.choices()} == wanted, typed
