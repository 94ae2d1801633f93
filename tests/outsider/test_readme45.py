"""A newcomer's README pass (tests/outsider/PLAN.md, "A newcomer's README pass (readme45)"):
the real `glossary-bot run` against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from tests.fake_discord import FakeDiscord
from tests.polling import eventually
from tests.resilience.botproc import BotProcess


async def test_a_sigterm_while_discord_does_not_answer_the_login_stops_the_bot(
    tmp_path: Path,
) -> None:
    """README: "SIGTERM and Ctrl-C stop it gracefully". Discord (or a proxy, or a firewall that
    drops packets) accepting the connection and not answering the login (`GET /users/@me`):
    the signals were taken, so Ctrl-C and `docker stop`'s SIGTERM only set a flag nothing
    looked at before the login ended (aiohttp gives up after 5 minutes; a container is killed
    after 10 s). Now the stop ends the wait: exit 0, nothing connected. SHARD_COUNT=1 skips
    the question before (`/gateway/bot`, which logs in too); both clients log in alike. The
    delay, 20 s, is past the 10 s allowed (a stop that waited the login out fails); the fake's
    stop ends the held answer."""
    async with FakeDiscord(shard_count=1) as fake:
        fake.faults.delay("GET", "/users/@me", 20.0)
        bot = BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path, SHARD_COUNT="1")
        await bot.start(wait_ready=False)
        await eventually(
            lambda: ("GET", "/api/v10/users/@me") in fake.requests, "the bot to log in"
        )
        code = await bot.stop(within=10)
        assert code == 0, bot.output
        assert "Traceback" not in bot.output, bot.output
        assert "Unclosed" not in bot.output, bot.output
        assert fake.gateway.identify_count == 0
