"""Attacks on this session's merges (tests/outsider/PLAN.md, "Review of this session's merges
(review43)"): the real bot (discord.py) against the fake Discord, the real CLI, real SQLite."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bot.discord_app import runner
from bot.discord_app.app import GlossaryBot
from bot.discord_app.runner import discords_shard_count
from bot.settings import MAX_SHARD_COUNT
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.term_commands import add_term, open_edit, submit, suggest_from_a_miss
from tests.discord_app.test_alias_permissions import PERMISSIONS_ROUTE, Helpers, helpers
from tests.fake_discord import FakeDiscord
from tests.fake_discord.command_permissions import override
from tests.fake_discord.interactions import base_payload
from tests.polling import eventually
from tests.resilience.botproc import BotProcess
from tests.resilience.test_malformed import command_id

from .conftest import Scene
from .test_left24 import _cli
from .test_left43 import copy_moved_behind_a_link, restoring_here

__all__ = ["helpers"]  # the fixture, used here


async def test_accept_opens_the_form_for_a_role_the_overrides_allow_while_they_are_slow(
    scene: Scene, bot: GlossaryBot, store: Store, helpers: Helpers
) -> None:
    """Attack 7: a helper allowed `/term` only by an Integrations override (no Manage Server)
    presses Accept… while the overrides are slow to read (2 s, past `FORM_WAIT`): deciding by
    `/term`'s default refused them ("no longer allowed"), where the form opened before left43.
    Not known in time: the form opens, and its save asks again."""
    role, helper = helpers
    await scene.fake.set_command_permissions(scene.guild, "term", [override(role, True)])
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(helper, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    bot.command_access.forget(scene.guild.id)  # as after any change Discord reports
    bot.command_access.fetch_timeout = 10.0
    scene.fake.faults.delay("GET", PERMISSIONS_ROUTE, 2.0, times=1)
    accepted = await scene.fake.click(helper, shown, buttons(shown)["Accept…"])
    assert (await accepted.response())["type"] == 9


async def test_accept_with_the_overrides_read_dropped_decides_by_the_defaults(
    scene: Scene, bot: GlossaryBot, store: Store, helpers: Helpers
) -> None:
    """Attack 8: the overrides read's connection dropped (no answer at all): the press decides
    by `/term`'s defaults, as menus do while Discord does not answer; no error id."""
    await suggest_from_a_miss(scene)
    review = await scene.fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    bot.command_access.forget(scene.guild.id)
    scene.fake.faults.drop_next("GET", PERMISSIONS_ROUTE, times=2)
    accepted = await scene.fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    assert (await accepted.response())["type"] == 9


async def _asking(tmp_path: Path, fake: FakeDiscord) -> BotProcess:
    """A bot started without SHARD_COUNT, held at its question to Discord (`/gateway/bot`
    answering 10 s late)."""
    fake.faults.delay("GET", "/gateway/bot", 10.0, times=1)
    bot = BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path)
    await bot.start(wait_ready=False)
    await eventually(
        lambda: ("GET", "/api/v10/gateway/bot") in fake.requests, "the bot to ask its count"
    )
    return bot


async def test_a_sighup_while_the_bot_asks_its_shard_count_does_not_kill_it(
    tmp_path: Path,
) -> None:
    """Attack 6: SIGHUP (reload the glossary) while the start waits for Discord's count (up to
    30 s): the signals were taken only after it, so SIGHUP's default action killed the
    process. Now it is taken first: the bot goes on to connect."""
    async with FakeDiscord(shard_count=1) as fake:
        bot = await _asking(tmp_path, fake)
        try:
            bot.send_signal(signal.SIGHUP)
            await fake.waiter.wait_for(
                lambda: fake.gateway.ready_sent, "the bot to connect", within=40
            )
            assert bot.process is not None
            assert bot.process.returncode is None, bot.output
            await bot.wait_for_output(r"glossary reloaded: \d+ entries")
        finally:
            code = await bot.stop()
        assert code == 0, bot.output
        assert "Traceback" not in bot.output, bot.output


async def test_a_sigterm_while_the_bot_asks_its_shard_count_stops_it_quietly(
    tmp_path: Path,
) -> None:
    """Attack 6: SIGTERM while the start waits for Discord's count: exit 0 at once, nothing
    printed but the start's lines."""
    async with FakeDiscord(shard_count=1) as fake:
        bot = await _asking(tmp_path, fake)
        code = await bot.stop(within=10)
        assert code == 0, bot.output
        assert "Traceback" not in bot.output, bot.output
        assert "Unclosed" not in bot.output, bot.output
        assert fake.gateway.identify_count == 0


async def test_a_sigterm_while_discords_shards_still_come_up_stops_without_tracebacks(
    tmp_path: Path,
) -> None:
    """SIGTERM after shard 0 of Discord's 3 is ready, the others still to come (one IDENTIFY
    per 5 s): discord.py went on launching the next shard on the closed client, logging
    "Failed to connect for shard_id: 1. Retrying..." with a traceback every 5 s until the
    stop's deadline. Now the launch ends with the stop: exit 0, no traceback, shard 1 never
    identified."""
    async with FakeDiscord(shard_count=3) as fake:
        bot = BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path)
        await bot.start(wait_ready=False)
        await bot.wait_for_output(r"shard 0 ready", within=30)
        code = await bot.stop()
        assert code == 0, bot.output
        assert "Traceback" not in bot.output, bot.output
        assert "Failed to connect" not in bot.output, bot.output
        assert [r.shard_id for r in fake.sharding.identifies] == [0]


@pytest.mark.parametrize(
    ("answered", "count"),
    [(0, 1), (-3, 1), (True, 1), ("3", 3), (MAX_SHARD_COUNT, MAX_SHARD_COUNT), (10**6, None)],
)
async def test_discords_count_is_taken_within_what_shard_count_takes(
    answered: object, count: int | None
) -> None:
    """Attacks 1-3: `/gateway/bot`'s `shards` as the fake answers it, read through discord.py's
    own HTTP client. A count above the 100,000 SHARD_COUNT takes (no bot has one; a proxy's or
    a broken answer) was run: a million shards launched one per 5 s, a million locks claimed
    on PostgreSQL. Now it is not taken: one connection and the WARNING saying why."""
    async with FakeDiscord(shard_count=1) as fake:
        fake.sharding.shard_count = answered  # type: ignore[assignment]  # as a proxy may
        with fake.patch_discord_py():
            taken, why = await discords_shard_count(fake.token)
    assert taken == count, why
    if count is None:
        assert f"{10**6} shards" in why, why
        assert f"at most {MAX_SHARD_COUNT}" in why, why


def test_check_deep_without_a_database_is_a_usage_error(tmp_path: Path) -> None:
    """Attack 11: `check --deep` without `--db` checked nothing more than `check` and said
    "0 error(s)", as if the deep check had passed. Now a usage error naming `--db`."""
    told = _cli(tmp_path, "check", "--deep")
    assert told.returncode == 2, told
    assert "--deep checks the database --db names: give --db too" in told.stderr, told
    assert told.stdout == "", told


async def test_nothing_changed_is_said_only_when_nothing_did(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Attack 9: a title whose case alone changes is a change ("Saved", an audit row); a form
    whose text differs only by spaces the bot trims and folds says "Nothing changed", logs
    nothing; and the related "rag" written as "RAG " is the same related term."""
    await add_term(scene)
    logged = len(await store.term_audit_log(scene.guild.id))
    spaced = await open_edit(scene, scene.moderator, "zorblax")
    answer = await submit(
        scene,
        scene.moderator,
        spaced,
        {
            "title": "  Zorblax ",
            "definition": "The team's nightly batch job that re-ranks retrieved documents.  ",
            "related": " RAG ",
        },
    )
    assert answer["content"].startswith("Nothing changed: **Zorblax**"), answer["content"]
    assert len(await store.term_audit_log(scene.guild.id)) == logged
    cased = await open_edit(scene, scene.moderator, "zorblax")
    answer = await submit(scene, scene.moderator, cased, {"title": "ZorBlax"})
    assert answer["content"].startswith("Saved **ZorBlax**"), answer["content"]
    assert len(await store.term_audit_log(scene.guild.id)) == logged + 1
    [term] = await read_terms(store, scene.guild.id)
    assert term.title == "ZorBlax"


@pytest.mark.parametrize(
    "period",
    ["@everyone <@&1> **" + "y" * 5990, "WEEK", 7],
)
async def test_stats_of_a_hostile_period_is_the_short_line(
    scene: Scene, bot: GlossaryBot, period: object
) -> None:
    """Attack 12: a raw period of 6,000 characters with a ping and markdown, one in capitals,
    one sent as a number: the short private line, bounded, pinging no one."""
    fake = scene.fake
    data = {
        "id": command_id(scene, "stats"),
        "name": "stats",
        "type": 1,
        "options": [{"name": "period", "type": 3, "value": period}],
    }
    payload = base_payload(
        fake.world, kind=2, data=data, user=scene.moderator, channel=scene.channel
    )
    answer = await (await fake.raw_interaction(payload)).final_message()
    assert is_ephemeral(answer), answer
    assert answer["content"].startswith("There is no period “"), answer
    assert len(answer["content"]) < 400, answer
    assert "@everyone" not in answer["content"], answer  # escaped: it pings no one
    assert "<@&" not in answer["content"].replace("\\<@&", ""), answer  # escaped too


@pytest.mark.parametrize("how", ["slow", "429"])
async def test_discord_slow_to_say_its_count_is_not_waited_for_past_the_bound(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Attack 4: `/gateway/bot` answering late, or 429 with a retry_after of a minute (which
    discord.py sleeps): the question ends at its bound (here 1 s for 30), and the bot runs one
    connection with the WARNING naming why."""
    monkeypatch.setattr(runner, "ASK_DISCORD", 1.0)
    async with FakeDiscord(shard_count=2) as fake:
        if how == "slow":
            fake.faults.delay("GET", "/gateway/bot", 5.0, times=1)
        else:
            fake.fail_next("GET", "/gateway/bot", status=429, retry_after=60.0)
        with fake.patch_discord_py():
            taken, why = await discords_shard_count(fake.token)
    assert (taken, why) == (None, "TimeoutError")


def test_a_kept_copys_link_to_a_disk_not_mounted_is_named_too(tmp_path: Path) -> None:
    """Left43 item 6, attacked: the copy moved to another disk, which is not mounted when a
    later restore prunes (the link dangles): the link went without a word, and with it the
    only note of where that copy is. Now it is named as a link, with where it points."""
    kept, restore = restoring_here(tmp_path)
    moved = copy_moved_behind_a_link(tmp_path, kept, restore)
    moved.parent.rename(tmp_path / "not-mounted")  # the link now points at nothing
    for _ in range(3):  # .2, .3, .4 made: .1 pruned
        output = restore()
    assert (
        f"removed the link {kept}.1 among the oldest copies earlier restores kept; the database "
        f"it points at, {moved}, stays (remove it when done)"
    ) in output, output
    assert not Path(f"{kept}.1").is_symlink()
