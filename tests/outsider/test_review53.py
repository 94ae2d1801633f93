"""review53: attacks on last session's product changes, and its leftovers (PLAN.md, "Review of
ops49, swap49, left50 and left51 (review53)"). The real bot on the fake Discord, real SQLite."""

from __future__ import annotations

import logging
import os
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import health
from bot.discord_app.app import GlossaryBot
from bot.discord_app.term_drafts import Drafts
from bot.heartbeat import STOPPED
from bot.storage import StorageError, Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, is_ephemeral

from .conftest import Scene
from .test_left50 import TERM
from .test_outsider49 import SUGGESTED, suggested, suggested_first


async def test_a_waiting_name_in_the_other_number_or_in_look_alike_letters_waits(
    scene: Scene, start_bot: StartBot
) -> None:
    """review51 left it: a member's waiting "zorblax" was queued again as "zorblaxes" or
    "zоrblax" (a Cyrillic о), names search meets as the same one (the other number; letters a
    reader cannot tell apart). Now they are said to be waiting too, before the form and at
    its submit; a name of other letters ("zorblix") is queued."""
    fake = scene.fake
    async with suggested_first(scene, start_bot, "zorblax") as (store, later):
        for name in ("zorblaxes", "Zоrblax", "ZОRBLAXES"):  # Cyrillic о, О
            later()
            again = await fake.slash(scene.alice, "suggest", {"term": name}, channel=scene.channel)
            said = await again.final_message()
            same = f"“{name}” is the same name here as “zorblax”, which you suggested already"
            assert said["content"].startswith(f"{same}: it is waiting"), said  # review54: named
            typed = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
            assert (await typed.response())["type"] == 9
            sent = await fake.submit_modal(scene.alice, typed, {"title": name, **SUGGESTED})
            said = await sent.final_message()
            assert said["content"].startswith(same), said
        later()
        await suggested(scene, scene.alice, "zorblix")
        waiting = await store.open_suggestions(scene.guild.id)
    assert [s.title for s in waiting] == ["zorblax", "zorblix"]


async def test_a_draft_the_failing_database_cannot_give_back_is_not_said_gone(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """left50 bounded a kept draft's read (`Drafts.get`) for a database that hangs; one that
    fails (PostgreSQL stopped, a locked file: a StorageError at once) read as no draft at all.
    After a restart, **Edit again** told a moderator "That draft is no longer kept (it is
    old)" and a member "That text is no longer kept (it is old): `/suggest` again", of text
    the database still holds (and gives back once it answers); a `/term add` form's save read
    as one opened without its options. Now they are told the text is still kept, to press again
    in a moment, and the save writes nothing and gives back what was typed."""
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term add", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    refused = await (await fake.submit_modal(scene.moderator, opened, TERM)).final_message()
    assert "Category: choose a category" in refused["content"], refused
    asked = await fake.slash(scene.alice, "suggest", {"term": "zorblax"}, channel=scene.channel)
    assert (await asked.response())["type"] == 9
    queue = store.add_suggestion
    monkeypatch.setattr(store, "add_suggestion", _failing)
    kept = await (await fake.submit_modal(scene.alice, asked, SUGGESTED)).final_message()
    assert "Your text is kept" in kept["content"], kept
    monkeypatch.setattr(store, "add_suggestion", queue)
    options = {"category": "Fundamentals", "acronym": "ZBX"}
    form = await fake.slash(scene.moderator, "term add", options, channel=scene.channel)
    assert (await form.response())["type"] == 9

    bot.state.term_drafts = Drafts(lambda: bot.state.store)  # a restart: nothing in memory
    read = store.term_draft
    monkeypatch.setattr(store, "term_draft", _failing)
    for member, shown in ((scene.moderator, refused), (scene.alice, kept)):
        pressed = await fake.click(member, shown, buttons(shown)["Edit again"])
        said = await pressed.final_message()
        assert "no longer kept" not in said["content"], said
        assert said["content"].startswith("The database cannot be read right now; your text is"), (
            said
        )
        assert is_ephemeral(said), said
    said = await (await fake.submit_modal(scene.moderator, form, TERM)).final_message()
    assert said["content"].startswith("Nothing was saved: the database cannot be read"), said
    assert TERM["definition"] in said["content"], said
    assert await read_terms(store, scene.guild.id) == []

    monkeypatch.setattr(store, "term_draft", read)  # the database back: the forms, as typed
    for member, shown in ((scene.moderator, refused), (scene.alice, kept)):
        pressed = await fake.click(member, shown, buttons(shown)["Edit again"])
        assert (await pressed.response())["type"] == 9


async def _failing(*args: Any) -> Any:
    raise StorageError("database is locked")


@pytest.mark.parametrize("alive", [True, False], ids=["alive", "gone"])
def test_a_running_older_bots_beat_is_left_by_a_stop(
    tmp_path: Path, alive: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """ops49 read a heartbeat line without a run id ("pid N on HOST", as left48's bot wrote
    it) as an older bot's and wrote a stop over it, alive or not: during an upgrade with the
    older bot still running on the file (a second container of the new image, refused), its
    fresh beat read "stopped" until its next beat. left48's rule holds for its own line again:
    a writer of this host that is alive keeps its beat; one gone is written over."""
    heartbeat = tmp_path / "heartbeat"
    pid = os.getppid() if alive else 99999999  # the test's parent runs; no process has the other
    older = f"{time.time():.0f}\n\npid {pid} on {socket.gethostname()}\n"
    heartbeat.write_text(older, "utf-8")
    with caplog.at_level(logging.WARNING):
        health.mark_stopped(heartbeat)
    said = heartbeat.read_text("utf-8")
    if alive:
        assert said == older
        [warned] = [
            r.getMessage() for r in caplog.records if "not written over it" in r.getMessage()
        ]
        assert f"another running process (pid {pid} on " in warned, warned
    else:
        assert said.startswith(STOPPED), said
        assert not caplog.records
