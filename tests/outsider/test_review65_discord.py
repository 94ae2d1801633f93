"""review65 (PLAN.md, "Attacks on last session's changes (review65)"): the limits' refunds
and Explain terms' late defer (left62, left63, flake63), attacked through the fake Discord as
moderators and members meet them."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from bot.discord_app.cogs import explain, terms
from bot.search.index import SearchIndex
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import TERM, open_add, submit
from tests.discord_app.test_member_searches import LONG, LONG_TEXT, STUCK

from .conftest import Scene

SLOW = "You're going a bit fast"
SAVED_ALREADY = "That form was saved already"


async def test_an_edit_again_whose_form_was_saved_opens_no_second_form(
    scene: Scene, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `/term add` form's save refused keeps its text for **Edit again**, which takes no use:
    the one use pays for the save that follows. But the refused answer's Edit again stayed
    live after that save: each press opened the form again, and each save added a term, all
    on the one use (1 a window here: four terms). Now a form saved is done: its Edit again
    (before a restart or after) says so and opens nothing; pressed while the save is still
    being written, the form it opens answers as that save does."""
    fake = scene.fake
    moderator = scene.moderator
    writing, written = asyncio.Event(), asyncio.Event()
    write = terms.write_terms

    async def held(*args: Any) -> str:
        writing.set()
        await written.wait()
        return await write(*args)

    async with start_bot(await Store.open(scene.db_path), cooldown=(1, 3600.0)):
        opened = await open_add(scene, moderator, category="Retrieval & Context")  # the use
        refused = await submit(scene, moderator, opened, {**TERM, "title": "@everyone"})
        assert str(refused["content"]).startswith("Nothing was saved"), refused["content"]
        again = buttons(refused)["Edit again"]
        reopened = await fake.click(moderator, refused, again)
        assert (await reopened.response())["type"] == 9  # free: its one use is the command's
        monkeypatch.setattr(terms, "write_terms", held)
        saving = await fake.submit_modal(moderator, reopened, {"title": "Zorblax"})
        await asyncio.wait_for(writing.wait(), STUCK)
        meanwhile = await fake.click(moderator, refused, again)
        assert (await meanwhile.response())["type"] == 9
        other = await fake.submit_modal(
            moderator, meanwhile, {"title": "Qorblax", "other_names": ""}
        )
        written.set()
        saved = await saving.final_message()
        assert str(saved["content"]).startswith("Added **Zorblax**"), saved["content"]
        assert (await other.final_message())["content"] == saved["content"]
        pressed = await fake.click(moderator, refused, again)
        said = str((await pressed.final_message())["content"])
        assert said.startswith(SAVED_ALREADY), said
    store = await Store.open(scene.db_path)
    async with start_bot(store, cooldown=(1, 3600.0)):  # the draft read back from the database
        pressed = await fake.click(moderator, refused, again)
        said = str((await pressed.final_message())["content"])
        assert said.startswith(SAVED_ALREADY), said
        assert [t.title for t in await read_terms(store, scene.guild.id)] == ["Zorblax"]


# --- Explain terms' late defer (flake63) -----------------------------------------------------


REAL_READ = SearchIndex.find_named_terms


class Reading:
    """Each read of a long text held until `released`, then failing where `fails`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, fails: bool) -> None:
        self.released = threading.Event()
        self.reads = 0

        def read(index: SearchIndex, text: str, *args: Any, **kwargs: Any) -> Any:
            if len(text) >= LONG:
                self.reads += 1
                assert self.released.wait(STUCK)
                if fails:
                    raise RuntimeError("the read broke")
            return REAL_READ(index, text, *args, **kwargs)

        monkeypatch.setattr(SearchIndex, "find_named_terms", read)


def callbacks(handle: Any) -> list[Any]:
    return [r for r in handle.records if r.kind == "callback"]


async def test_explain_terms_deferred_late_answers_once_whatever_the_read_does(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """flake63's defer, after the read had half Discord's 3 s: a read that then fails is told
    (an error id, privately) as the defer's follow-up, not as a second first response; three
    Explain terms of one long message at once (one member twice, another) are each answered
    once. Both held on main a8a39543 (review65: no fix)."""
    # A read held until released is slow at any wait: a short one keeps this test quick.
    monkeypatch.setattr(explain, "READ_BEFORE_DEFER", 0.1)
    fake = scene.fake
    async with start_bot(store):
        await define(fake, scene.alice, "rag", scene.channel)  # this server's terms are read
        said = await fake.user_message(scene.bob, scene.channel, LONG_TEXT)

        failing = Reading(monkeypatch, fails=True)
        handle = await fake.message_command(scene.alice, "Explain terms", said)
        first = await handle.response()  # sent while the read is held
        failing.released.set()
        assert first["type"] == 5, first
        told = await handle.final_message()
        assert is_ephemeral(told)
        assert str(told["content"]).startswith("Something went wrong on my side"), told
        assert (len(callbacks(handle)), len(handle.followup_ids)) == (1, 1)

        reading = Reading(monkeypatch, fails=False)
        handles = [
            await fake.message_command(who, "Explain terms", said)
            for who in (scene.alice, scene.alice, scene.bob)
        ]
        firsts = [await h.response() for h in handles]
        reading.released.set()
        assert [f["type"] for f in firsts] == [5, 5, 5], firsts
        for handle in handles:
            listing = await handle.final_message()
            assert embed_of(listing)["title"] == "1 glossary term in this message"
            assert (len(callbacks(handle)), len(handle.followup_ids)) == (1, 1)
        assert reading.reads == 3
