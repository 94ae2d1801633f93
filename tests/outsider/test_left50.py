"""Leftovers of review50, review51 and readme49 (tests/outsider/PLAN.md, "Leftovers
(left50)"), each fix's test failing before it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.term_drafts import Drafts
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, is_ephemeral

from .conftest import Scene

TERM = {
    "title": "Zorblax",
    "definition": "The team's nightly batch job that re-ranks retrieved documents.",
}


def hang_draft_reads(
    bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> asyncio.Event:
    """A restart (no draft in memory) and a database whose draft reads hang until the event."""
    bot.state.term_drafts = Drafts(lambda: bot.state.store)
    hung = asyncio.Event()
    read = store.term_draft

    async def hanging(*args: Any) -> Any:
        await hung.wait()
        return await read(*args)

    monkeypatch.setattr(store, "term_draft", hanging)
    return hung


async def test_term_edit_again_answers_in_time_while_the_database_hangs(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review51's leftover: `/term`'s Edit again reads a kept draft back from the database
    after a restart, unbounded: a hanging database held the button past Discord's 3 s ("This
    interaction failed"), each press again. Now bounded as a suggestion's Edit again is."""
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term add", {}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    refused = await (await fake.submit_modal(scene.moderator, opened, TERM)).final_message()
    assert "Category: choose a category" in refused["content"], refused
    hung = hang_draft_reads(bot, store, monkeypatch)
    try:
        pressed = await fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
        said = await pressed.final_message()
        assert said["content"].startswith("The database did not answer in time"), said
        assert "still kept" in said["content"]
        assert is_ephemeral(said), said
    finally:
        hung.set()
    pressed = await fake.click(scene.moderator, refused, buttons(refused)["Edit again"])
    assert (await pressed.response())["type"] == 9  # the database back: the form, as typed


async def test_term_save_answers_while_the_database_hangs_its_draft_read(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `/term` form's save read its draft (the command's options, the term edited) without
    a bound: a hanging database left the moderator's "thinking…" for ever. Now nothing is
    saved, they are told why, and what they typed is given back."""
    fake = scene.fake
    options = {"category": "Fundamentals", "acronym": "ZBX"}
    opened = await fake.slash(scene.moderator, "term add", options, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    hung = hang_draft_reads(bot, store, monkeypatch)
    try:
        said = await (await fake.submit_modal(scene.moderator, opened, TERM)).final_message()
        text = said["content"]
        assert text.startswith("Nothing was saved: the database did not answer in time"), said
        assert TERM["definition"] in text
        assert is_ephemeral(said), said
    finally:
        hung.set()
    assert await read_terms(store, scene.guild.id) == []  # not added without its options
