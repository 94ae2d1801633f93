"""Attacks on this session's merges (tests/outsider/PLAN.md, "Review of this session's merges
(review43)"): the real bot (discord.py) against the fake Discord, the real CLI, real SQLite."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.runner import discords_shard_count
from bot.settings import MAX_SHARD_COUNT
from bot.storage import Store
from tests.discord_app.helpers import buttons
from tests.discord_app.test_alias_permissions import PERMISSIONS_ROUTE, Helpers, helpers
from tests.discord_app.test_suggestions import suggest_from_a_miss
from tests.fake_discord import FakeDiscord
from tests.fake_discord.command_permissions import override
from tests.polling import eventually
from tests.resilience.botproc import BotProcess

from .conftest import Scene
from .test_left24 import _cli

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
