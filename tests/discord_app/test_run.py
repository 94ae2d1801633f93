"""`glossary-bot run` started as a user would, against the fake Discord."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import discord
import pytest

from bot.storage import Store
from tests.fake_discord import FakeDiscord

from .helpers import embed_of

ROOT = Path(__file__).resolve().parents[2]


def _env(fake: FakeDiscord, tmp_path: Path, token: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN=token,
        DISCORD_API_BASE_URL=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DATABASE_PATH=str(tmp_path / "run.db"),
        GLOSSARY_PATHS="",
        LOG_LEVEL="INFO",
    )
    env.update(extra)
    return env


async def _start(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "run",
        env=env,
        cwd=cwd,  # not the checkout: no developer's .env is read
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_glossary_bot_run_answers_and_stops_cleanly_on_sigterm(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Run Lab")
    channel = guild.add_text_channel("general")
    alice = fake.add_user("alice")
    guild.add_member(alice)
    env = _env(fake, tmp_path, fake.token, DEV_GUILD_ID=str(guild.id))

    process = await _start(env, tmp_path)
    try:
        async with asyncio.timeout(30):
            await fake.wait_until_ready(guild_id=guild.id)  # commands synced to the dev guild
        handle = await fake.slash(alice, "define", {"term": "kv cache"}, channel=channel)
        card = await handle.final_message()
        assert embed_of(card)["title"] == "KV Cache"
        assert handle.response_latency is not None
        assert handle.response_latency < 3
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode()
    assert fake.token not in stderr.decode()

    store = await Store.open(tmp_path / "run.db", flush_interval=None)
    try:
        assert await store.lookup_count(guild.id, "kv-cache") == 1
    finally:
        await store.close()


LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (\w+)\s")


@pytest.mark.parametrize("level", ["WARNING", "INFO"])
async def test_a_rejected_token_is_one_line_and_exit_code_2(
    fake_discord: FakeDiscord, tmp_path: Path, level: str
) -> None:
    wrong = "wrong-token-Zm9vYmFyYmF6cXV4"
    env = _env(fake_discord, tmp_path, wrong, LOG_LEVEL=level)
    process = await _start(env, tmp_path)
    async with asyncio.timeout(30):
        _, raw = await process.communicate()
    stderr = raw.decode()
    assert process.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert wrong not in stderr
    lines = stderr.strip().splitlines()
    # At INFO the log also says what the bot is doing ("logging in using static token");
    # apart from those there is one line, the error, and nothing at all at WARNING.
    info = [line for line in lines if (m := LOG_LINE.match(line)) and m.group(1) == "INFO"]
    if level == "WARNING":
        assert info == []
    [error] = [line for line in lines if line not in info]
    assert (
        error == "glossary-bot: Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN"
    )


async def test_a_missing_token_is_one_line_and_exit_code_2(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    env = _env(fake_discord, tmp_path, "")
    del env["DISCORD_TOKEN"]
    process = await _start(env, tmp_path)
    async with asyncio.timeout(30):
        _, raw = await process.communicate()
    assert process.returncode == 2
    [line] = raw.decode().strip().splitlines()
    assert line.startswith("glossary-bot: DISCORD_TOKEN is not set")


async def test_an_alias_added_through_glossary_bot_run_survives_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    owner = fake.add_user("owner")
    guild = fake.add_guild("Alias Lab", owner=owner)
    channel = guild.add_text_channel("general")
    alice = fake.add_user("alice")
    guild.add_member(alice)
    env = _env(fake, tmp_path, fake.token, DEV_GUILD_ID=str(guild.id))

    for run in ("first", "after restart"):
        process = await _start(env, tmp_path)
        try:
            async with asyncio.timeout(30):
                await fake.wait_until_ready(guild_id=guild.id)
            if run == "first":
                added = await fake.slash(
                    owner, "alias add", {"alias": "kvc", "term": "kv-cache"}, channel=channel
                )
                assert (await added.final_message())["content"].startswith("Added: “kvc” now opens")
            handle = await fake.slash(alice, "define", {"term": "kvc"}, channel=channel)
            card = await handle.final_message()
            assert embed_of(card)["title"] == "KV Cache", run
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            async with asyncio.timeout(30):
                _, stderr = await process.communicate()
        assert process.returncode == 0, stderr.decode()


def test_the_runner_gives_back_the_signal_handlers_it_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While it runs, the bot's loop takes SIGTERM and SIGINT (stop) and SIGHUP (reload).
    asyncio's removal of a loop's handler puts back the default, not what was there: a program
    that embeds or re-runs the runner got Python's Ctrl-C (KeyboardInterrupt) where it ignored
    SIGINT, and was killed by a SIGHUP it ignored (as under nohup) or a SIGTERM it handled.
    Now the handlers found are put back when the bot stops."""
    from bot.discord_app import runner
    from bot.settings import Settings

    def embedders_own(signum: int, frame: object) -> None:
        return None

    monkeypatch.chdir(tmp_path)  # no developer's .env
    monkeypatch.setattr(runner, "configure_logging", lambda *args, **kwargs: None)
    # the endpoints it points discord.py at are put back after
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(gateway, "DEFAULT_GATEWAY", gateway.DEFAULT_GATEWAY)
    found = {
        signal.SIGINT: signal.SIG_IGN,
        signal.SIGTERM: embedders_own,
        signal.SIGHUP: signal.SIG_IGN,
    }
    left = {sig: signal.signal(sig, handler) for sig, handler in found.items()}
    try:
        # Discord cannot be reached (nothing listens on port 9): the bot's loop has taken the
        # signals, tries to log in, and stops.
        unreachable = Settings(
            discord_token="x.y.z",
            discord_api_base_url="http://127.0.0.1:9/api/v10",
            database_path=tmp_path / "bot.db",
        )
        assert runner.run(unreachable) == runner.EXIT_ERROR
        assert {sig: signal.getsignal(sig) for sig in found} == found
    finally:
        for sig, handler in left.items():
            signal.signal(sig, handler)


def test_a_stop_once_the_bot_has_stopped_still_ends_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`glossary-bot run` stops on SIGTERM with exit 0 while it starts (its settings, its
    glossary: `cli._stop_while_starting`), and the runner puts that handler back once the bot
    has stopped. A SIGTERM in the last moments of closing then ended the process through
    Python's finalization, seconds freeing the indexes (`run_to_exit`); it ends at once, 0."""
    from bot.discord_app import runner

    class Exited(Exception):
        pass

    def stopped_by_sigterm(settings: object = None) -> int:
        raise SystemExit(0)  # what cli's handler raises

    def exit_now(code: int) -> None:
        raise Exited(code)

    monkeypatch.setattr(runner, "run", stopped_by_sigterm)
    monkeypatch.setattr(runner.os, "_exit", exit_now)
    with pytest.raises(Exited) as ended:
        runner.run_to_exit()
    assert ended.value.args == (0,)
