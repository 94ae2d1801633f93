"""review74 (tests/outsider/PLAN.md, "review74"): the SQLite file swapped under the running
bot, as an outsider swaps it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from .conftest import OpenStore, query
from .test_lost_file import lines_naming


async def test_an_empty_file_renamed_in_is_said_as_a_new_empty_database(
    open_store: OpenStore, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A 0-byte file renamed over the database (a backup that failed to download, then `mv`d
    into place) is taken up as a new database, as at start-up. Failed before: one WARNING "was
    replaced by another database (a restored backup?) … what was only in the file it replaced
    is not in it", while nothing of the old file is in it: said now as a file deleted is, an
    ERROR that the bot made a new, empty database there."""
    caplog.set_level(logging.INFO, logger="bot.storage")
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "glossary.sqlite3"
    store = await open_store(path)
    await store.add_alias(1, "kept", "kept", "rag", 7)
    empty = tmp_path / "downloaded.db"
    empty.touch()
    empty.replace(path)
    store.record_lookup(1, "lora")
    assert await store.flush()
    assert await store.aliases(1) == {}
    assert query(path, "SELECT entry_id, count FROM lookups") == [("lora", 1)]
    assert lines_naming(caplog, path) == [
        (
            "ERROR",
            f"the database file DATABASE_PATH={path} was replaced by an empty file: the bot "
            "made a new, empty database there and writes to it; what the old file held "
            "(aliases, terms, counts) is not in it",
        )
    ]
