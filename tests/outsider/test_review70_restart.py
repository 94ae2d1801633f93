"""review70 (tests/outsider/PLAN.md, "review70"): health while lookup counts cannot be
written (ops69), then the process restarted with the grant still taken back: what it says at
the stop, how it starts, and what reaches the database once the grant is back.

Needs a real PostgreSQL: TEST_DATABASE_URL (as test_ops69)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Migrate, Store
from tests.discord_app.helpers import define
from tests.polling import eventually
from tests.resilience.botproc import BotProcess, glossary_bot

from .conftest import Scene
from .test_ops69 import ROLE, _code, as_owner, schema_of, schema_url  # noqa: F401  (fixture)

pytestmark = pytest.mark.postgres


async def test_a_restart_while_counts_cannot_be_written_loses_only_what_it_says(
    scene: Scene,
    schema_url: str,  # noqa: F811  (the fixture)
    tmp_path: Path,
) -> None:
    """Held on main 75238385. The operator restarts a bot whose health is red because lookup
    counts cannot be written (a grant taken back): its stop says how many counts it could not
    keep (one ERROR); the new process starts green (nothing waits yet: README's "three flushes
    in a row"), turns red once its own counts fail three flushes, and green with them all
    written once the grant is back, the first process's lost counts not written twice."""
    schema = schema_of(schema_url)
    settings = {"DATABASE_URL": schema_url, "HEARTBEAT_INTERVAL": "0.5", "COOLDOWN_USES": "100"}
    settings["HEARTBEAT_PATH"] = str(tmp_path / "heartbeat")

    async def health() -> tuple[int, str]:
        return await glossary_bot(dict(bot.env), tmp_path, "health")

    async def lookups(n: int) -> None:
        for _ in range(n):
            _, card = await define(scene.fake, scene.alice, "rag", scene.channel)
            assert card["embeds"], card

    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await eventually(lambda: _code(health(), 0), "healthy at start")
        await as_owner(schema_url, f"REVOKE INSERT, UPDATE ON {schema}.lookups FROM {ROLE}")
        await lookups(3)
        await eventually(lambda: _code(health(), 1), "unhealthy while counts cannot be written")
        assert await bot.stop() == 0
        lost = await bot.wait_for_output(r"closing with .* could not be written")
        assert "ERROR" in lost, lost
        assert "3 lookups" in lost, lost

    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, **settings) as bot:
        await eventually(lambda: _code(health(), 0), "healthy at the restart: nothing waits")
        await lookups(2)
        await bot.wait_for_output(r"could not write lookup counts")
        await eventually(lambda: _code(health(), 1), "unhealthy again, its own counts waiting")
        _, said = await health()
        assert "permission denied for table lookups" in said, said
        await as_owner(schema_url, f"GRANT INSERT, UPDATE ON {schema}.lookups TO {ROLE}")
        await eventually(lambda: _code(health(), 0), "healthy again once they are written")
        store = await Store.open(schema_url, flush_interval=None, migrate=Migrate.NEVER)
        try:
            assert await store.total_lookups(scene.guild.id) == 2
        finally:
            await store.close()
        assert await bot.stop() == 0
