"""SHARD_COUNT and SHARD_IDS: which bot a process runs, and one line naming the setting when
they do not fit together."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from discord.ext import commands

from bot.discord_app import runner
from bot.discord_app.state import BotState
from bot.glossary import load_glossary
from bot.settings import ACCEPTS, Settings, SettingsError, load_settings
from tests.discord_app.helpers import define
from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import BotProcess


@pytest.mark.parametrize(
    ("count", "ids", "named"),
    [
        ("4", "0,4", "SHARD_IDS=0,4 is not valid: expected this process's shards: numbers below"),
        ("4", "2,x", "SHARD_IDS=2,x is not valid"),
        ("4", "1,1", "SHARD_IDS=1,1 is not valid"),
        ("4", "0,,1", "SHARD_IDS=0,,1 is not valid"),
        ("4", "-1", "SHARD_IDS=-1 is not valid"),
        ("4", "１", "SHARD_IDS=\\uff11 is not valid"),  # a full-width digit
        ("", "0,1", "SHARD_IDS=0,1 is not valid"),  # no SHARD_COUNT
        ("0", "", "SHARD_COUNT=0 is not valid: expected how many shards"),
        ("four", "", "SHARD_COUNT=four is not valid"),
        # More shards than Discord has servers for (a typo): refused before a connection opens.
        ("99999999999", "", "SHARD_COUNT=99999999999 is not valid: expected how many shards"),
        ("100001", "0,1", "SHARD_COUNT=100001 is not valid"),
        ("-4", "", "SHARD_COUNT=-4 is not valid"),
        ("4.5", "", "SHARD_COUNT=4.5 is not valid"),
        ("4", "99999999999999999999999", "SHARD_IDS=99999999999999999999999 is not valid"),
        ("4", "0,1,", "SHARD_IDS=0,1, is not valid"),
        ("4", "0 1", "SHARD_IDS=0 1 is not valid"),
        ("4", "0;1", "SHARD_IDS=0;1 is not valid"),
        ("4", "0-3", "SHARD_IDS=0-3 is not valid"),
        ("4", "0," * 5000 + "0", "SHARD_IDS=" + "0," * 20 + "... is not valid"),  # cut short
    ],
)
def test_shards_that_do_not_fit_are_refused_on_one_line(
    count: str,
    ids: str,
    named: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # no developer's .env
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    assert runner.run() == runner.EXIT_CONFIG
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("glossary-bot: bad setting: "), err
    assert named in err, err


def test_a_bad_shard_count_is_not_blamed_on_good_shard_ids(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no developer's .env
    monkeypatch.setenv("SHARD_COUNT", "100001")
    monkeypatch.setenv("SHARD_IDS", "0,1")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert str(refused.value) == (
        f"bad setting: SHARD_COUNT=100001 is not valid: expected {ACCEPTS['shard_count']}"
    )


@pytest.mark.parametrize("window", ["1e300", "61", "0", "-5", "nan", "inf", "5s", ""])
def test_an_identify_window_that_never_ends_is_refused(
    window: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """IDENTIFY_WINDOW=1e300 left every shard waiting its turn for ever, silently."""
    monkeypatch.chdir(tmp_path)  # no developer's .env
    monkeypatch.setenv("IDENTIFY_WINDOW", window)
    if window == "":  # empty: the default, Discord's 5 s
        assert load_settings().identify_window == 5.0
        return
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert str(refused.value) == (
        f"bad setting: IDENTIFY_WINDOW={window} is not valid: expected {ACCEPTS['identify_window']}"
    )


@pytest.mark.parametrize("window", ["0.5", "60"])
def test_identify_windows_that_fit(
    window: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("IDENTIFY_WINDOW", window)
    assert load_settings().identify_window == float(window)


@pytest.mark.parametrize(
    ("count", "ids", "discords", "sharded", "shard_ids"),
    [
        ("", "", None, False, None),  # unset, Discord's count unknown: one connection
        ("", "", 1, False, None),  # unset, a bot Discord does not shard: one connection
        ("", "", 3, True, None),  # unset: Discord's 3, all in this process
        ("4", "", None, True, None),  # every one of 4 shards in this process
        ("4", "", 3, True, None),  # SHARD_COUNT wins over Discord's count
        ("1", "", None, True, None),  # set to 1: a shard of 1, as asked
        ("4", " 3, 1 ", None, True, [3, 1]),
        ("100000", "99999", None, True, [99999]),  # the most shards a bot may have
    ],
)
def test_which_bot_runs(
    count: str,
    ids: str,
    discords: int | None,
    sharded: bool,
    shard_ids: list[int] | None,
    tmp_path: Path,
) -> None:
    settings = Settings(_env_file=None, shard_count=count or None, shard_ids=ids)  # type: ignore[call-arg]
    assert settings.shard_id_list == shard_ids
    bot = runner.make_bot(BotState(load_glossary(None), None), settings, discords)
    assert isinstance(bot, commands.AutoShardedBot) == sharded
    if sharded:
        assert bot.shard_ids == shard_ids
        assert bot.shard_count == int(count or discords or 0)


@pytest.mark.parametrize("log_format", ["text", "json"])
async def test_some_shards_on_a_file_of_their_own_run_and_say_so(
    log_format: str, tmp_path: Path
) -> None:
    """A process over shard 1 of 2 on SQLite answers its guilds, and warns that no other
    process can share its database. Every log line names its shards: text, a `[shards 1]`
    prefix; JSON, a `shards` field a log system can filter on ("1")."""
    async with FakeDiscord(shard_count=2) as fake:
        alice = fake.add_user("alice")
        guilds = [fake.add_guild(f"Guild {shard}", shard=shard) for shard in (0, 1)]
        channels = [guild.add_text_channel("general") for guild in guilds]
        for guild in guilds:
            guild.add_member(alice)
        bot = BotProcess(
            fake,
            tmp_path / "bot.db",
            cwd=tmp_path,
            shards=[1],
            SHARD_COUNT="2",
            SHARD_IDS="1",
            LOG_FORMAT=log_format,
        )
        async with bot:
            _, card = await define(fake, alice, "rag", channels[1])
            assert card["embeds"], card
            assert fake.gateway.live_shards() == {1}
            assert await bot.stop() == 0, bot.output
        assert "SHARD_IDS 1 is part of the bot's 2 shards, but the database is not shared" in (
            bot.output
        )
        if log_format == "text":
            assert "[shards 1]" in bot.output
        else:
            lines = [json.loads(line) for line in bot.output.splitlines() if line.startswith("{")]
            assert lines, bot.output
            assert {line.get("shards") for line in lines} == {"1"}, bot.output
        assert fake.violation_report() is None
