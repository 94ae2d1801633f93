"""review54: attacks on review53's changes (PLAN.md, "review54"). The real bot on the fake
Discord, real SQLite."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import limits
from bot.discord_app.app import GlossaryBot
from bot.discord_app.term_drafts import Draft, Drafts
from bot.glossary.server_terms import TermDraft
from bot.storage import StorageError, Store
from bot.storage.queries import aliases as alias_queries
from bot.storage.queries import terms as term_queries
from bot.term_storage import read_terms
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons

from .conftest import Scene
from .test_outsider49 import SUGGESTED, suggested_first

# A definition at the form's cap, with Markdown: given back escaped, it is twice a message.
_SENTENCE = "The team's *nightly* batch job that re-ranks `retrieved` documents. "
LONG = {
    "title": "Zorblax",
    "definition": (_SENTENCE * 80)[: limits.TERM_FORM["definition"] - 1] + ".",
}


def _inputs(modal: dict[str, Any]) -> dict[str, str]:
    """A modal's text inputs as it opens: custom id -> the value filled in."""
    found: dict[str, str] = {}

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 4:
                found[item["custom_id"]] = item.get("value") or ""
            walk(item.get("components") or [])
            if isinstance(item.get("component"), dict):
                walk([item["component"]])

    walk(modal["data"]["components"])
    return found


async def test_a_form_saved_while_the_database_cannot_give_its_draft_back_keeps_the_text(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """review53 made a `/term add` form saved while the database fails (after a restart, its
    draft not in memory) write nothing and give back what was typed, in one message: a
    definition at the form's cap (4,000 characters, more once its Markdown is escaped) was cut
    to 2,000 there, the rest lost, and no **Edit again** was offered. Now the typed text is
    kept with the form's options for Edit again once the database answers."""
    fake = scene.fake
    options = {"category": "Fundamentals", "acronym": "ZBX"}
    form = await fake.slash(scene.moderator, "term add", options, channel=scene.channel)
    assert (await form.response())["type"] == 9

    # a restart: nothing in memory (a read given time: a loaded machine is no failing database)
    bot.state.term_drafts = Drafts(lambda: bot.state.store, read_timeout=30)
    read = store.term_draft
    monkeypatch.setattr(store, "term_draft", _failing)
    said = await (await fake.submit_modal(scene.moderator, form, LONG)).final_message()
    assert said["content"].startswith("Nothing was saved: the database cannot be read"), said
    assert len(said["content"]) <= limits.MESSAGE_CONTENT
    assert await read_terms(store, scene.guild.id) == []
    again = buttons(said)["Edit again"]

    pressed = await fake.click(scene.moderator, said, again)  # still failing: still kept
    still = await pressed.final_message()
    assert still["content"].startswith("The database cannot be read right now; your text"), still

    monkeypatch.setattr(store, "term_draft", read)  # the database back: the form as typed
    pressed = await fake.click(scene.moderator, said, again)
    reopened = await pressed.response()
    assert reopened["type"] == 9, reopened
    assert _inputs(reopened)["definition"] == LONG["definition"]
    saved = await (await fake.submit_modal(scene.moderator, pressed, {})).final_message()
    assert "Nothing was saved" not in saved["content"], saved
    [term] = await read_terms(store, scene.guild.id)
    assert (term.title, term.definition) == (LONG["title"], LONG["definition"])
    assert (term.category, term.acronym) == ("Fundamentals", "ZBX")  # the options read back


async def test_an_add_form_the_database_never_kept_reopens_as_typed_once_it_answers(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same save, of a `/term add` form whose draft the database never held (it could not
    be written as the form opened: kept in memory, lost at a restart): once the database
    answered, Edit again said "That draft is no longer kept (it is old). The text is in the
    message above", which held it cut. An add form is then reopened with what was typed, as
    its save goes on without the command's options (the category is asked for again)."""
    fake = scene.fake
    keep = store.save_term_draft
    monkeypatch.setattr(store, "save_term_draft", _failing)
    form = await fake.slash(scene.moderator, "term add", {}, channel=scene.channel)
    assert (await form.response())["type"] == 9
    monkeypatch.setattr(store, "save_term_draft", keep)

    # a restart: nothing in memory (a read given time: a loaded machine is no failing database)
    bot.state.term_drafts = Drafts(lambda: bot.state.store, read_timeout=30)
    read = store.term_draft
    monkeypatch.setattr(store, "term_draft", _failing)
    said = await (await fake.submit_modal(scene.moderator, form, LONG)).final_message()
    assert said["content"].startswith("Nothing was saved: the database cannot be read"), said
    monkeypatch.setattr(store, "term_draft", read)
    pressed = await fake.click(scene.moderator, said, buttons(said)["Edit again"])
    reopened = await pressed.response()
    assert reopened["type"] == 9, reopened
    assert _inputs(reopened)["definition"] == LONG["definition"]
    refused = await (await fake.submit_modal(scene.moderator, pressed, {})).final_message()
    assert "Category: choose a category" in refused["content"], refused


async def test_text_kept_for_a_form_is_given_to_its_owner_only() -> None:
    """`keep_typed`'s text, asked for by another member under the form's nonce (a forged
    click), is neither given to them nor dropped: its owner's Edit again still gets it."""

    class Stored:
        async def term_draft(self, nonce: str, scope: int, owner: int) -> str:
            return Draft(2, 1, TermDraft("Zorblax", "old", category="Fundamentals")).to_json()

    drafts = Drafts(lambda: Stored())  # type: ignore[arg-type, return-value]
    drafts.keep_typed("n1", 1, 2, {"title": "Zorblax", "definition": "new"}, edit=False)
    assert await drafts.get("n1", 1, 3) is None
    draft = await drafts.get("n1", 1, 2)
    assert draft is not None
    assert (draft.typed.definition, draft.typed.category) == ("new", "Fundamentals")


async def test_a_name_taken_for_a_waiting_one_names_the_one_waiting(
    scene: Scene, start_bot: StartBot
) -> None:
    """review53's `same_name` takes "RMS" (root mean square) for a waiting "RM" (reward model):
    search reads a short name's "s" as its other number, as term names meet. The member was
    told "You suggested “RMS” already", a name they never suggested, so they could not tell
    what waits or why. Now the answer names the waiting suggestion as it was written; a name
    that is the waiting one in another spelling is answered as before."""
    fake = scene.fake
    waits = "it is waiting for this server's moderators."
    async with suggested_first(scene, start_bot, "RM") as (store, later):
        later()
        for name in ("RMS", "RМ"):  # a Cyrillic М
            asked = await fake.slash(scene.alice, "suggest", {"term": name}, channel=scene.channel)
            said = await asked.final_message()
            assert said["content"].startswith(
                f"“{name}” is the same name here as “RM”, which you suggested already: {waits}"
            ), said
            typed = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
            assert (await typed.response())["type"] == 9
            sent = await fake.submit_modal(scene.alice, typed, {"title": name, **SUGGESTED})
            said = await sent.final_message()
            assert said["content"].startswith(f"“{name}” is the same name here as “RM”"), said
        asked = await fake.slash(scene.alice, "suggest", {"term": "r-m"}, channel=scene.channel)
        said = await asked.final_message()
        assert said["content"].startswith(f"You suggested “r-m” already: {waits}"), said
        waiting = await store.open_suggestions(scene.guild.id)
    assert [s.title for s in waiting] == ["RM"]


async def _failing(*args: Any) -> Any:
    raise StorageError("database is locked")


class _Recording:
    """A transaction that records the reads asked of it and finds nothing."""

    def __init__(self, *, found: bool = True) -> None:
        self.asked: list[tuple[str, tuple[Any, ...]]] = []
        self.found = found  # whether the cursor's entry is there

    async def fetch(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        self.asked.append((sql, tuple(params)))
        return [(1_700_000_000,)] if sql.startswith("SELECT at ") and self.found else []


async def test_a_log_page_is_read_in_time_order_from_an_index(tmp_path: Path) -> None:
    """review53 ordered `/term log`, `terms log` and the alias log newest in time, which no
    index held: every page sorted the server's whole log, each entry's term text before and
    after carried into the sort (30,000 entries of 3 KB texts: 0.1-0.4 s a page here, against
    0.1 ms by id; from a cold disk, the whole log read). Now an index by server and time gives
    the pages in order, a later page too."""
    path = tmp_path / "glossary.db"
    store = await Store.open(path)
    await store.close()
    tx, gone = _Recording(), _Recording(found=False)
    await term_queries.term_audit_log(tx, scope=1, limit=11)  # type: ignore[arg-type]
    await term_queries.term_audit_log(tx, scope=1, limit=11, older_than=5)  # type: ignore[arg-type]
    await term_queries.term_audit_log(gone, scope=1, limit=11, older_than=5)  # type: ignore[arg-type]
    await alias_queries.audit_log(tx, scope=1, limit=50)  # type: ignore[arg-type]
    with contextlib.closing(sqlite3.connect(path)) as db:
        for sql, params in tx.asked + gone.asked:
            plan = " / ".join(row[-1] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", params))
            assert "TEMP B-TREE" not in plan, (sql, plan)
