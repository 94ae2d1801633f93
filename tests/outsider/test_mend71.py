"""mend71 (PLAN.md, "mend71"): three loose ends of the seventh session's merged work.

Terms stored before outsider71 refused a name search reads as another's ("quuxwidget ★" beside a
term Quuxwidget, "rag ✓" beside the bundled RAG): README said the bot logs them as it reads the
server and `check --db` lists them; `bot/mismatches.py` found the other-number pairs only."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.glossary import Glossary
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.storage.cli import check_servers
from tests.discord_app.conftest import StartBot

from .conftest import Scene
from .test_left34 import _store_unchecked


def _term(term_id: str, title: str, *aliases: str) -> ServerTerm:
    return ServerTerm(
        id=term_id, title=title, aliases=aliases, category="Fundamentals", definition="One."
    )


# As an older version stored them: the later id's name read as the earlier's, the earlier id's
# name read as the later's (either order), and a name read as the bundled RAG's.
STORED = (
    _term("quuxwidget", "Quuxwidget"),
    _term("quux-widget-two", "Quux Widget Two", "quuxwidget ★"),
    _term("a-zorbnet-box", "A Zorbnet Box", "📦 zorbnet"),
    _term("zorbnet", "Zorbnet"),
    _term("our-rag", "Our Rag", "rag ✓"),
)


async def test_stored_names_search_reads_as_anothers_are_listed_and_logged(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    glossary: Glossary,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Failed before: `check --db` said nothing of them, nor did the bot as it read the server."""
    await _store_unchecked(store, scene.guild.id, STORED)
    _, problems = await asyncio.to_thread(check_servers, scene.db_path, glossary)
    where = f"server {scene.guild.id}"
    said = [p.message for p in problems if p.file == where]
    tail = "stored before such names were refused, it is shown as stored, but /term edit"
    assert said == [
        f"term “A Zorbnet Box” (id 'a-zorbnet-box') is read by search as “Zorbnet”, a name of "
        f"the server's term “Zorbnet”: {tail} refuses to save either until one is renamed",
        f"term “Our Rag” (id 'our-rag') is read by search as “RAG”, the glossary's name for "
        f"“Retrieval-Augmented Generation”: {tail} refuses to save it until it is renamed",
        f"term “Quux Widget Two” (id 'quux-widget-two') is read by search as “Quuxwidget”, a "
        f"name of the server's term “Quuxwidget”: {tail} refuses to save either until one is "
        "renamed",
    ], said
    caplog.set_level(logging.WARNING, logger="bot")
    async with start_bot(store):
        told = [
            r.getMessage() for r in caplog.records if "such names were refused" in r.getMessage()
        ]
    assert len(told) == 1, told
    assert "3 terms stored before" in told[0], told
    for title in ("A Zorbnet Box", "Our Rag", "Quux Widget Two"):
        assert f"“{title}” as" in told[0], told
