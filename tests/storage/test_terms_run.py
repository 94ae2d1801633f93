"""Server terms through `glossary-bot run` on each backend, with a restart between writing a term
and reading it, and through `glossary-bot terms export|import` as an operator runs them."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from bot.term_storage import read_terms
from tests.discord_app.conftest import Scene, scene  # noqa: F401  (the fixture)
from tests.discord_app.helpers import buttons, define, embed_of
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.resilience.botproc import ROOT, BotProcess, glossary_bot

from .conftest import Databases, OpenStore, bot_database

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
    db_path, settings = bot_database(databases, location, tmp_path)

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
    # At the default caps an import takes an export of a full server: 2 x 2 MiB + 512 B a term.
    assert err.strip() == f"glossary-bot: error: {huge} is 50 MiB; an import is at most 4.98 MiB"


async def test_a_server_glossary_from_nothing_survives_restarts_everywhere(
    scene: Scene,  # noqa: F811
    databases: Databases,
    location: str,
    open_any: OpenStore,
    tmp_path: Path,
) -> None:
    """The issue's "done when", as people do it: a moderator builds a glossary in Discord alone
    (each form submitted after a restart of the bot), a member's suggestion is accepted and
    another's rejected (each told), the glossary moves to another server by file, and the log,
    `stats` and `terms log` tell what happened."""
    fake = scene.fake
    db_path, settings = bot_database(databases, location, tmp_path)

    def run() -> BotProcess:
        return BotProcess(fake, db_path, cwd=tmp_path, **settings)

    async def restart(bot: BotProcess) -> BotProcess:
        assert await bot.stop() == 0, bot.output
        again = run()
        await again.start()
        return again

    bot = run()
    await bot.start()
    options = {"category": "Fundamentals", "acronym": "ZBX", "summary": "Our nightly rerank."}
    adding = await fake.slash(scene.moderator, "term add", options, channel=scene.channel)
    assert (await adding.response())["type"] == 9
    bot = await restart(bot)  # the form stays open in the moderator's Discord meanwhile
    saved = await (await fake.submit_modal(scene.moderator, adding, TERM)).final_message()
    assert saved["content"].startswith("Added **Zorblax**"), saved

    editing = await fake.slash(
        scene.moderator, "term edit", {"term": "zorblax"}, channel=scene.channel
    )
    assert (await editing.response())["type"] == 9
    bot = await restart(bot)
    better = "The team's nightly batch job that re-ranks what retrieval found."
    edited = await (
        await fake.submit_modal(scene.moderator, editing, {"definition": better})
    ).final_message()
    assert edited["content"].startswith("Saved **Zorblax**"), edited

    # Members suggest what is missing; the moderator accepts one (form submitted after a
    # restart) and rejects the other; each member is told privately.
    for member, query in ((scene.alice, "frobnication"), (scene.bob, "blorptex")):
        _, miss = await define(fake, member, query, scene.channel)
        opened = await fake.click(member, miss, buttons(miss)["Suggest it"])
        await opened.response()
        idea = f"What our team calls {query}, in a member's words."
        thanked = await (
            await fake.submit_modal(member, opened, {"definition": idea})
        ).final_message()
        assert thanked["content"].startswith("Thanks!"), thanked
    review = await fake.slash(
        scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
    )
    shown = await review.final_message()
    assert embed_of(shown)["title"] == "frobnication"
    accepting = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
    assert (await accepting.response())["type"] == 9
    bot = await restart(bot)
    accepted = await (
        await fake.submit_modal(scene.moderator, accepting, {"title": "Frobnication"})
    ).final_message()
    assert accepted["content"].startswith("Added **Frobnication**"), accepted
    assert "the member was told privately" in accepted["content"]
    told = await fake.wait_for_channel_message(fake.dm_channel(scene.alice))
    assert "“frobnication”" in told["content"]
    assert "was added" in told["content"]
    review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    shown = await review.final_message()
    assert embed_of(shown)["title"] == "blorptex"
    rejecting = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
    assert "the member was told privately" in (await rejecting.final_message())["content"]
    told = await fake.wait_for_channel_message(fake.dm_channel(scene.bob))
    assert "was not added" in told["content"]

    # The glossary moves to another server by file, and works there after a restart.
    exported = await fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
    data = fake.attachment_bytes((await exported.final_message())["attachments"][0])
    imported = await fake.slash(
        scene.other_moderator,
        "term import",
        {"file": fake.add_attachment("terms.toml", data)},
        channel=scene.other_channel,
    )
    assert (await imported.final_message())["content"].startswith("Imported: 2 added")
    bot = await restart(bot)
    _, card = await define(fake, scene.alice, "zbx", scene.other_channel)
    assert embed_of(card)["title"].startswith("Zorblax"), card
    assert better in embed_of(card)["description"]

    # The moderator reads what happened; so does the operator.
    logged = await fake.slash(scene.moderator, "term log", {}, channel=scene.channel)
    page = embed_of(await logged.final_message())["description"]
    assert f"rejected the suggestion “blorptex” from <@{scene.bob.id}>" in page, page
    assert f"accepted the suggestion “frobnication” from <@{scene.alice.id}>" in page, page
    assert f"<@{scene.moderator.id}> edited “Zorblax”" in page, page
    assert f"~~{TERM['definition']}~~ → {better}" in page, page
    assert await bot.stop() == 0, bot.output

    env = dict(bot.env)
    code, out = await glossary_bot(env, tmp_path, "stats", "--guild", str(scene.guild.id))
    assert code == 0, out
    assert "Server terms: 2\n" in out
    assert "Suggestions: 0 open, 1 accepted, 1 rejected" in out
    code, out = await glossary_bot(env, tmp_path, "terms", "log", "--guild", str(scene.guild.id))
    assert code == 0, out
    lines = out.splitlines()
    assert f"user {scene.moderator.id} rejected the suggestion “blorptex” from user" in lines[0]
    assert "accepted the suggestion “frobnication”" in lines[1]
    assert "(as term frobnication)" in lines[1]
    assert f"    Definition: {TERM['definition']} → {better}" in lines
    code, out = await glossary_bot(env, tmp_path, "stats", "--json")
    assert code == 0, out
    totals = json.loads(out)
    assert (totals["term_count"], totals["suggestions"]["accepted"]) == (4, 1)

    store = await open_any()
    zorblax = next(t for t in await read_terms(store, scene.guild.id) if t.id == "zorblax")
    assert (zorblax.category, zorblax.acronym, zorblax.summary) == (
        "Fundamentals",
        "ZBX",
        "Our nightly rerank.",
    )
