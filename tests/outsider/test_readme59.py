"""readme59: what a newcomer following README.md and .env.example met (tests/outsider/PLAN.md,
"README as a newcomer reads it (readme59)"), each fix's test failing before it."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from bot.discord_app import metrics as bot_metrics
from bot.discord_app.health import mark_stopped
from bot.settings import Settings
from bot.storage import Store
from tests.resilience.botproc import BotProcess

from .conftest import Scene


@pytest.mark.parametrize("host", ["127.0.0..1", ".localhost", "a" * 64 + ".example"])
async def test_a_metrics_host_no_name_can_be_is_one_error_line_and_the_bot_runs_without(
    host: str, caplog: pytest.LogCaptureFixture
) -> None:
    """README (Metrics and logs): a port already taken is one line and the bot runs on without
    metrics; so is a host name not found. A METRICS_HOST with an empty or over-long part
    between its dots (a typo: `127.0.0..1`) ended `glossary-bot run` in a traceback
    (UnicodeError from the IDNA codec, which the OSError handler let through)."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="not-used", metrics_port=0, metrics_host=host
    )
    with caplog.at_level(logging.ERROR, logger="bot.discord_app.metrics"):
        served = bot_metrics.serve_metrics(settings, cast(Any, None), cast(Any, None))
    assert served is None
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.discord_app.metrics"]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"cannot serve metrics on {host}:0 (METRICS_HOST, METRICS_PORT)")
    assert "not a host name or address" in lines[0], lines
    assert lines[0].endswith("; running without"), lines


def _read_only(folder: Path) -> list[str]:
    """A command prefix under which `folder`, as it is, is mounted read-only (a volume a bot
    ran on, given again with `:ro`), in a mount namespace of the command's own."""
    prefix = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c"]
    prefix += ['mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"', str(folder)]
    if subprocess.run([*prefix, "true"], check=False).returncode != 0:
        pytest.skip("no unshare with user and mount namespaces: no read-only mount to be had")
    return prefix


async def test_a_volume_a_bot_ran_on_given_again_read_only_is_named_so(
    scene: Scene, tmp_path: Path
) -> None:
    """README (Run it in a container, Health): a database that cannot be opened at start (a
    read-only volume) is one log line naming DATABASE_PATH and why, and `health` stays
    unhealthy, naming it. A volume a bot had run on, mounted `:ro` (`podman run -v vol:/data:ro`
    as a newcomer tried it): the line said only "the database file cannot be opened", and
    `health` said "stopped: the bot stopped cleanly N s ago, and has not connected since", the
    earlier run's stop line, which the bot running now cannot write over."""
    folder = tmp_path / "data"
    folder.mkdir()
    db, heartbeat = folder / "glossary-bot.db", folder / "glossary-bot.heartbeat"
    await (await Store.open(db)).close()  # what a first run left on the volume: its database
    mark_stopped(heartbeat)  # and its stop line
    prefix = _read_only(folder)
    async with BotProcess(
        scene.fake, db, cwd=tmp_path, prefix=prefix, HEARTBEAT_PATH=str(heartbeat)
    ) as bot:
        line = await bot.wait_for_output("cannot open the database")
        said = await asyncio.to_thread(
            subprocess.run,
            [*prefix, sys.executable, "-m", "bot.cli", "health"],
            env=dict(bot.env),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
    assert f"DATABASE_PATH={db}" in line, line
    assert f"it is on a read-only file system ({folder})" in line, line
    assert said.returncode == 1, said
    assert said.stderr.startswith("stopped: the bot stopped cleanly "), said
    assert (
        f"; but HEARTBEAT_PATH={heartbeat} is on a read-only file system: a bot running now "
        "cannot write it either (its log says why)"
    ) in said.stderr, said
