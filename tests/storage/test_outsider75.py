"""outsider75 (tests/outsider/PLAN.md, "outsider75"): the bot's run lock after its database's
folder was deleted and made again under it, and `health` of a folder its user cannot write."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bot import heartbeat
from bot.storage.sqlite.run_lock import bot_running_on

from .conftest import OpenStore


async def test_a_folder_made_again_gets_the_bot_s_lock_file_back(
    open_store: OpenStore, tmp_path: Path
) -> None:
    """outsider75: the folder of DATABASE_PATH deleted and made again while the bot ran: the bot
    made a new database there and moved its lock on the file's byte to it, but its lock file
    (`DATABASE_PATH-bot.lock`) went with the folder and was never made again. `restore`,
    `prune --vacuum` and a second `run` were still refused (by the byte), but named "a bot on
    another name of this file (a hard link)", not the bot on this very name. The lock file is
    made again beside the new file, naming the bot, and holds while it runs."""
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "glossary.sqlite3"
    store = await open_store(database)
    async with store.claim_shards(None, holder="glossary-bot all shards pid 42", wait=0):
        assert bot_running_on(str(database)) == "glossary-bot all shards pid 42"
        shutil.rmtree(folder)
        store.record_lookup(1, "rag")
        assert not await store.flush()
        folder.mkdir()  # back, empty: the next write makes a new database there
        assert await store.flush()
        assert bot_running_on(str(database)) == "glossary-bot all shards pid 42"
        shutil.copy(database, tmp_path / "backup.sqlite3")
        (tmp_path / "backup.sqlite3").replace(database)  # replaced again: still this bot's
        store.record_lookup(1, "rag")
        assert await store.flush()
        assert bot_running_on(str(database)) == "glossary-bot all shards pid 42"
    assert bot_running_on(str(database)) is None


def test_health_says_how_to_mend_a_heartbeat_folder_this_user_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """outsider75 (C3): the image run with a host folder on /data that its user (uid 10001) may
    not write. The bot logged that the database cannot be made there; `health` said "its folder
    /data is not writable by this user: HEARTBEAT_PATH must be in one the bot can write", which
    sends the operator to move the heartbeat, while the database needs that folder too. It now
    names the user and says to give it the folder, or to move HEARTBEAT_PATH."""
    real = os.access
    monkeypatch.setattr(
        heartbeat.os, "access", lambda path, mode: path != tmp_path and real(path, mode)
    )
    healthy, said = heartbeat.check_heartbeat(tmp_path / "glossary-bot.heartbeat")
    assert not healthy
    assert f"its folder {tmp_path} is not writable by this user (uid {os.getuid()})" in said
    assert "give the folder to that user" in said, said
    assert "HEARTBEAT_PATH" in said, said
