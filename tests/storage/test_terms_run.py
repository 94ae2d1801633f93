"""Server terms through `glossary-bot run` on each backend, with a restart between writing a term
and reading it, and through `glossary-bot terms export|import` as an operator runs them."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from bot.term_storage import read_terms
from tests.discord_app.conftest import Scene, scene  # noqa: F401  (the fixture)
from tests.discord_app.helpers import buttons, define, embed_of
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.resilience.botproc import ROOT, BotProcess

from .conftest import Databases, OpenStore

TERM = {
    "title": "Zorblax",
    "definition": "The team's nightly batch job that re-ranks retrieved documents.",
    "related": "RAG",
}


async def test_a_term_written_in_discord_survives_a_restart(
    scene: Scene,  # noqa: F811
    databases: Databases,
    location: str,
    open_any: OpenStore,
    tmp_path: Path,
) -> None:
    fake = scene.fake
    if databases.backend == "sqlite":
        db_path, settings = Path(location), {}
    else:
        db_path, settings = tmp_path / "unused.db", {"DATABASE_URL": location}

    async with BotProcess(fake, db_path, cwd=tmp_path, **settings) as bot:
        opened = await fake.slash(
            scene.moderator, "term add", {"category": "Fundamentals"}, channel=scene.channel
        )
        assert (await opened.response())["type"] == 9
        saved = await (await fake.submit_modal(scene.moderator, opened, TERM)).final_message()
        assert saved["content"].startswith("Added **Zorblax**"), saved
        assert await bot.stop() == 0, bot.output

    async with BotProcess(fake, db_path, cwd=tmp_path, **settings) as again:
        _, card = await define(fake, scene.alice, "zorblax", scene.channel)
        assert embed_of(card)["title"] == "Zorblax", card
        related = buttons(card)["Retrieval-Augmented Generation"]
        opened = await fake.click(scene.alice, card, related)
        await opened.response()
        exported = await fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
        message = await exported.final_message()
        assert b'title = "Zorblax"' in fake.attachment_bytes(message["attachments"][0])
        assert await again.stop() == 0, again.output

    store = await open_any()
    [term] = await read_terms(store, scene.guild.id)
    assert term.related == ("rag",)
    assert await read_terms(store, scene.other_guild.id) == []


async def cli(tmp_path: Path, db_path: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "MAX_"))}
    env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(db_path), GLOSSARY_PATHS="")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        *args,
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    return process.returncode or 0, out.decode(), err.decode()


async def test_operators_export_and_import_terms(tmp_path: Path) -> None:
    db = tmp_path / "ops.db"
    source = tmp_path / "terms.md"
    source.write_text(
        "Our glossary ¶\nWords of our team.\n\nZorblax ¶\n"
        "The team's nightly batch job that re-ranks retrieved documents.\n"
    )
    code, out, err = await cli(tmp_path, db, "terms", "import", str(source), "--guild", "7")
    assert code == 1
    assert "Category" in err  # Markdown has no categories: say which to use
    code, out, err = await cli(
        tmp_path, db, "terms", "import", str(source), "--guild", "7", "--category", "Fundamentals"
    )
    assert (code, err) == (0, "")
    assert out.startswith("Imported: 1 added, 0 changed, 0 removed.")
    code, exported, err = await cli(tmp_path, db, "terms", "export", "--guild", "7")
    assert code == 0
    assert 'title = "Zorblax"' in exported
    again = tmp_path / "again.toml"
    again.write_text(exported)
    code, out, _ = await cli(tmp_path, db, "terms", "import", str(again), "--guild", "8")
    assert out.startswith("Imported: 1 added")
    code, out, _ = await cli(
        tmp_path, db, "terms", "import", str(again), "--guild", "8", "--dry-run"
    )
    assert out.startswith("Dry run, nothing written. Would import: 0 added, 0 changed, 0 removed.")
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as f:
        f.truncate(50 * 2**20)
    code, _, err = await cli(tmp_path, db, "terms", "import", str(huge), "--guild", "8")
    assert code == 1
    assert err.strip() == f"glossary-bot: error: {huge} is 50.0 MiB; an import is at most 1 MiB"
