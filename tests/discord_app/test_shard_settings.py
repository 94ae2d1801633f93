"""SHARD_COUNT and SHARD_IDS: which bot a process runs, and one line naming the setting when
they do not fit together."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.discord_app import runner
from bot.discord_app.state import BotState
from bot.glossary import load_glossary
from bot.settings import Settings


@pytest.mark.parametrize(
    ("count", "ids", "named"),
    [
        ("4", "0,4", "SHARD_IDS [4] outside 0..3"),
        ("4", "2,x", "SHARD_IDS must be shard numbers"),
        ("4", "1,1", "SHARD_IDS lists a shard twice"),
        ("4", "0,,1", "SHARD_IDS must be shard numbers"),
        ("4", "-1", "SHARD_IDS must be shard numbers"),
        ("", "0,1", "SHARD_IDS needs SHARD_COUNT"),
        ("0", "", "SHARD_COUNT: Input should be greater than or equal to 1"),
        ("four", "", "SHARD_COUNT: Input should be a valid integer"),
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


@pytest.mark.parametrize(
    ("count", "ids", "sharded", "shard_ids"),
    [
        ("", "", False, None),  # unset: one process, as today
        ("4", "", True, None),  # every one of 4 shards in this process
        ("4", " 3, 1 ", True, [3, 1]),
    ],
)
def test_which_bot_runs(
    count: str, ids: str, sharded: bool, shard_ids: list[int] | None, tmp_path: Path
) -> None:
    settings = Settings(_env_file=None, shard_count=count, shard_ids=ids)  # type: ignore[call-arg]
    assert settings.shard_id_list == shard_ids
    bot = runner.make_bot(BotState(load_glossary(None), None), settings)
    assert isinstance(bot, commands.AutoShardedBot) == sharded
    if sharded:
        assert bot.shard_ids == shard_ids
        assert bot.shard_count == 4
