"""PostgreSQL as small deployments meet it (tests/outsider/PLAN.md, round 11 lines U3, P3, W2):
a host that never answers, a role with a connection limit, an alias removed while an import
adds it."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path

from tests.discord_app.helpers import define, embed_of

from .botproc import BotProcess, bot_env, glossary_bot
from .conftest import Scene
from .test_lost_database import eventually


@contextlib.contextmanager
def blackholed_port() -> Iterator[int]:
    """A port whose connections never complete, as a host behind a firewall that drops them:
    a listening socket that never accepts, its one-place queue taken, so the kernel drops every
    later SYN and the client waits for its own timeout."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)):
            yield port


async def test_a_database_host_that_never_answers(scene: Scene, tmp_path: Path) -> None:
    """Plan line U3 (round 11), a blackholed host: the bot starts within its connect timeout,
    /define answers from the bundled glossary, `health` says the database is the trouble, and
    the log has one line naming DATABASE_URL and why. That line ended in "…/glossary: " (a
    timeout's message is empty)."""
    db = tmp_path / "unused.db"
    with blackholed_port() as port:
        url = f"postgresql://glossary:s3cret@127.0.0.1:{port}/glossary"
        heartbeat = tmp_path / "heartbeat"
        settings = {"DATABASE_URL": url, "HEARTBEAT_PATH": str(heartbeat)}
        env = bot_env(scene.fake, db, **settings)
        async with BotProcess(scene.fake, db, cwd=tmp_path, **settings) as bot:
            _, message = await define(scene.fake, scene.alice, "kv cache", scene.channel)
            assert embed_of(message)["title"] == "KV Cache"
            await eventually(heartbeat.exists, "the first heartbeat")
            status, said = await glossary_bot(env, tmp_path, "health")
            assert status == 1, said
            assert said.startswith("unhealthy: connected to Discord, but the database "), said
            assert f"(DATABASE_URL=postgresql://glossary@127.0.0.1:{port}/glossary)" in said
    named = [line for line in bot.lines if "ERROR" in line and "DATABASE_URL" in line]
    assert len(named) == 1, named
    assert named[0].endswith(
        f"cannot reach the database at postgresql://glossary@127.0.0.1:{port}/glossary: no "
        "answer in time (a firewall dropping the connection, or the wrong host or port); "
        "answering without counts and aliases"
    ), named
    assert "s3cret" not in bot.output
    assert "Traceback" not in bot.output
