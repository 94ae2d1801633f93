"""HEARTBEAT_INTERVAL (wait67): the seconds between the heartbeat's periodic beats, a setting
(10 by default, as the constant was), so that `glossary-bot health --max-age` may be shorter than
45 s, and tests wait half a second for a beat rather than ten. `health` judges staleness by its
max age whatever the interval: a short interval makes a healthy bot no less healthy between
beats, nor a stopped one fresh for longer. tests/outsider/PLAN.md, "Waits (wait67)"."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

from bot.heartbeat import HEARTBEAT_INTERVAL, MAX_AGE, check_heartbeat
from bot.settings import SettingsError, load_settings
from tests.fake_discord import FakeDiscord
from tests.outsider.test_small_faults import SHORT_BEATS
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot

INTERVAL = float(SHORT_BEATS["HEARTBEAT_INTERVAL"])


async def _next_write(heartbeat: Path, after: int, within: float = 30.0) -> int:
    """The heartbeat file's modification time (ns) once the bot has written it again; polled:
    the file is another process's, and no event says it changed."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        written = (await asyncio.to_thread(heartbeat.stat)).st_mtime_ns
        if written != after:
            return written
        await asyncio.sleep(INTERVAL / 5)
    raise AssertionError(f"the heartbeat was not written again within {within} s")


async def test_a_short_interval_beats_often_and_health_judges_it_by_its_max_age(
    tmp_path: Path,
) -> None:
    """A bot with HEARTBEAT_INTERVAL=0.5 writes its file every half second (before: the
    setting unknown, every 10 s); `health --max-age 5` calls it healthy at each of its beats
    (the interval, not the default's 10 s, is what the max age must cover), and once it is
    killed its last beat is judged stale past the max age and fresh before it, as any beat."""
    heartbeat = tmp_path / "heartbeat"
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(heartbeat), **SHORT_BEATS}
    async with (
        FakeDiscord() as fake,
        BotProcess(
            fake, tmp_path / "bot.db", cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat), **SHORT_BEATS
        ) as bot,
    ):
        await bot.wait_for_output(r"healthy: heartbeat in", within=30)
        written = heartbeat.stat().st_mtime_ns
        gaps = []
        for _ in range(3):
            beat = await _next_write(heartbeat, written)
            gaps.append((beat - written) / 1e9)
            written = beat
            status, told = await glossary_bot(env, tmp_path, "health", "--max-age", "5")
            assert status == 0, told
            assert told.startswith("healthy: last heartbeat "), told
        # Beats every half second: well within the default's 10 s, whatever the load.
        assert max(gaps) < HEARTBEAT_INTERVAL / 2, gaps
        assert await bot.stop(signal.SIGKILL) == -signal.SIGKILL
    last = heartbeat.stat().st_mtime
    # Many intervals without a beat are not what makes a heartbeat stale: its max age is.
    assert check_heartbeat(heartbeat, now=last + MAX_AGE - 1)[0]
    healthy, why = check_heartbeat(heartbeat, now=last + MAX_AGE + 1)
    assert not healthy
    assert why.startswith("last heartbeat 46 s ago (more than 45 s)"), why
    assert check_heartbeat(heartbeat, 2.0, now=last + 1.5)[0]
    assert not check_heartbeat(heartbeat, 2.0, now=last + 2.5)[0]


async def test_health_refuses_a_max_age_its_bot_s_beats_cannot_keep_fresh(
    tmp_path: Path,
) -> None:
    """`health --max-age 5` of a bot beating every 10 s (the default) read a healthy bot as
    stale for half of each interval. Now it says so in one line naming both (exit 2), before
    reading any file; with the interval shorter than the max age it reads the file."""
    env = {**CLI_ENV, "HEARTBEAT_PATH": str(tmp_path / "heartbeat")}
    status, told = await glossary_bot(env, tmp_path, "health", "--max-age", "5")
    assert status == 2, told
    assert told.splitlines() == [
        "glossary-bot: --max-age 5 is not longer than HEARTBEAT_INTERVAL=10 (the seconds "
        "between the bot's heartbeats): give a longer --max-age, or the bot and health a "
        "shorter HEARTBEAT_INTERVAL"
    ], told
    status, told = await glossary_bot(
        {**env, "HEARTBEAT_INTERVAL": "4"}, tmp_path, "health", "--max-age", "5"
    )
    assert status == 1, told
    assert told.startswith("no heartbeat at "), told


@pytest.mark.parametrize("value", ["0", "0.05", "16", "60", "inf", "soon"])
@pytest.mark.usefixtures("no_dotenv")
def test_an_interval_health_could_not_judge_is_refused_naming_the_setting(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Longer than a third of the max age (45 s), a beat late by a loaded machine's seconds
    reads as a bot down; shorter than 0.1 s, the file is rewritten many times a second."""
    monkeypatch.setenv("HEARTBEAT_INTERVAL", value)
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert str(refused.value) == (
        f"bad setting: HEARTBEAT_INTERVAL={value} is not valid: expected a number of seconds "
        "from 0.1 to 15 (a third of health's 45)"
    )


@pytest.mark.parametrize("value", ["0.1", "2", "15"])
@pytest.mark.usefixtures("no_dotenv")
def test_an_interval_within_the_bounds_is_read(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().heartbeat_interval == HEARTBEAT_INTERVAL  # unset: the default, 10
    monkeypatch.setenv("HEARTBEAT_INTERVAL", value)
    assert load_settings().heartbeat_interval == float(value)
