"""`glossary-bot run` on each backend, as an operator runs it: DATABASE_URL selects PostgreSQL,
without it the SQLite file at DATABASE_PATH. Lookups, an alias and a restart in between."""

from __future__ import annotations

from pathlib import Path

from tests.discord_app.conftest import Scene, scene  # noqa: F401  (the fixture)
from tests.discord_app.helpers import define, embed_of
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import moderator_says

from .conftest import Databases, OpenStore, bot_database


async def test_the_bot_counts_and_keeps_aliases_on_either_backend(
    scene: Scene,  # noqa: F811
    databases: Databases,
    location: str,
    open_any: OpenStore,
    tmp_path: Path,
) -> None:
    db_path, settings = bot_database(databases, location, tmp_path)

    async with BotProcess(scene.fake, db_path, cwd=tmp_path, **settings) as bot:
        for term in ("rag", "lora", "kv cache"):
            _, card = await define(scene.fake, scene.alice, term, scene.channel)
            assert embed_of(card)["title"], card
        _, added = await moderator_says(
            scene, "alias add", {"alias": "kv stash", "term": "kv-cache"}
        )
        assert added["content"].startswith("Added"), added
        assert await bot.stop() == 0, bot.output

    async with BotProcess(scene.fake, db_path, cwd=tmp_path, **settings) as again:
        _, card = await define(scene.fake, scene.alice, "kv stash", scene.channel)
        assert "KV" in embed_of(card)["title"], card  # the alias survived the restart
        assert await again.stop() == 0, again.output

    assert db_path.exists() == (databases.backend == "sqlite")
    store = await open_any()
    assert await store.total_lookups(scene.guild.id) == 4
    assert await store.aliases(scene.guild.id) == {"kv stash": "kv-cache"}
    assert "glossary:glossary@" not in bot.output + again.output  # no password in the log
