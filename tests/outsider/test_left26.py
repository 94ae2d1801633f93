"""Leftovers of round 22 (task left26, PLAN.md "Leftovers of round 22"): through the real bot
(discord.py) against the fake Discord, with real SQLite files and PostgreSQL schemas."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs import terms as terms_cog
from bot.storage import Store
from bot.term_storage import read_terms
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.term_commands import suggest_from_a_miss
from tests.fake_discord.models import SEND_MESSAGES
from tests.resilience.helpers import locked_by_another_process, warned
from tests.storage.conftest import fresh_schema
from tests.storage.test_terms_store import PausedAfterItsRead

from .conftest import Scene
from .test_round7 import title_of
from .test_round19 import accept_form


@pytest.mark.postgres
async def test_a_reject_raced_by_another_process_is_told_how_it_was_decided(
    scene: Scene, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """left25's reading of `suggestions.decide`, tried through the bot: two processes on one
    PostgreSQL database; a moderator's Reject read the suggestion open, and another process
    accepted it before the Reject's update. The Reject still audited a rejection, told the
    member "not added" (after the other process told them "added") and its moderator "Rejected
    the suggestion". Now the update's row count decides: the later one is told it was already
    accepted, nothing more audited, no message to the member."""
    fake = scene.fake
    async with fresh_schema(TEST_DATABASE_URL, "left26") as url:
        other = await Store.open(url)  # the other process's store
        try:
            async with start_bot(await Store.open(url)):
                assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
                [waiting] = await other.open_suggestions(scene.guild.id)
                review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
                shown = await review.final_message()
                paused = PausedAfterItsRead(monkeypatch)
                rejected = await fake.click(scene.moderator, shown, buttons(shown)["Reject"])
                await paused.read.wait()  # the bot's decision read it open
                assert await other.decide_suggestion(
                    scene.guild.id, waiting.id, accepted=True, actor_id=scene.admin.id
                )
                paused.go.set()
                answer = (await rejected.final_message())["content"]
                assert answer == (  # and, as every decision since outsider43, what waits next
                    "That suggestion was already accepted (`/term log` says by whom).\n"
                    "No more suggestions are waiting."
                ), answer
                audit = await other.term_audit_log(scene.guild.id)
                assert [(a.action, a.actor_id) for a in audit] == [
                    ("suggestion_accept", scene.admin.id)
                ]
                assert fake.store.channel_messages(fake.dm_channel(scene.alice).id) == []
        finally:
            await other.close()


@pytest.mark.busy_timeout(0.5)  # the refusal is the point, not SQLite's 5 s wait
async def test_a_suggestion_saved_while_the_database_is_locked_keeps_what_was_typed(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Round 22's leftover (N33's twin): a member writes `/suggest`'s form (up to 2,000
    characters of their own words) and sends it while another process holds the database's
    write lock. The answer was "The database cannot be written right now … Please try again
    later." and nothing more: the member's text was gone. Now it is kept for **Edit again**
    (as a `/term` form's is), which reopens the form filled in; sent then, it is queued."""
    fake = scene.fake
    words = "The nightly batch job that re-ranks what retrieval found, in our own words. " * 20
    opened = await fake.slash(scene.alice, "suggest", {"term": "zorblax"}, channel=scene.channel)
    assert (await opened.response())["type"] == 9
    async with locked_by_another_process(scene.db_path):
        sent = await fake.submit_modal(scene.alice, opened, {"definition": words})
        answer = await sent.final_message()
    assert answer["content"].startswith("The database cannot be written right now"), answer
    assert is_ephemeral(answer)
    assert "Edit again" in buttons(answer), answer
    assert await store.open_suggestions(scene.guild.id) == []

    again = await fake.click(scene.alice, answer, buttons(answer)["Edit again"])
    form = await again.response()
    assert form["type"] == 9, form
    filled = {
        row["components"][0]["custom_id"]: row["components"][0].get("value")
        for row in form["data"]["components"]
    }
    assert filled == {"title": "zorblax", "definition": words.strip()}, filled
    queued = await (await fake.submit_modal(scene.alice, again, {})).final_message()
    assert queued["content"].startswith("Thanks! “zorblax” is with"), queued
    [waiting] = await store.open_suggestions(scene.guild.id)
    assert (waiting.title, waiting.definition, waiting.user_id) == (
        "zorblax",
        words.strip(),
        scene.alice.id,
    )


async def test_an_accept_form_whose_suggestion_is_rejected_as_it_saves_writes_nothing(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 19's window (PLAN.md "Summary (round 19)" item 1): an Accept… form's save read the
    suggestion open, then wrote its term, then decided the suggestion in a write of its own. A
    Reject by another moderator (or process) landing between that read and the term's write
    left a term written for a suggestion whose member was told "not added", answered "Added …
    That suggestion was already rejected". Now the acceptance is in the term's own write, which
    is undone when the suggestion is no longer open: nothing written, the moderator told how it
    was decided, the text kept."""
    fake = scene.fake
    assert (await suggest_from_a_miss(scene, "zorblax")).startswith("Thanks!")
    [waiting] = await store.open_suggestions(scene.guild.id)
    mine = await accept_form(scene, scene.moderator)
    real = terms_cog.change_terms

    async def rejected_as_it_writes(*args: Any, **kwargs: Any) -> Any:
        # `store` is another process's: its moderator rejects just before this write begins
        rejected = await store.decide_suggestion(
            scene.guild.id, waiting.id, accepted=False, actor_id=scene.admin.id
        )
        assert rejected is not None
        return await real(*args, **kwargs)

    monkeypatch.setattr(terms_cog, "change_terms", rejected_as_it_writes)
    sent = await fake.submit_modal(scene.moderator, mine, {"title": "Zorblax"})
    answer = (await sent.final_message())["content"]
    assert answer.startswith("Nothing was saved"), answer
    assert "this suggestion was already rejected" in answer, answer
    assert await read_terms(store, scene.guild.id) == []
    audit = await store.term_audit_log(scene.guild.id)
    assert [(a.action, a.actor_id) for a in audit] == [("suggestion_reject", scene.admin.id)]


async def test_a_mention_where_an_overwrite_denies_send_messages_is_one_operator_line(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Round 22's N6 through a channel's permission overwrite, as servers usually take Send
    Messages from a bot (the fake now sends `permission_overwrites` in GUILD_CREATE and
    computes `app_permissions` and its own refusals with them): the bot's role denied Send
    Messages in one channel. A mention there is not answered (no post Discord would refuse),
    the operator told once which permission it lacks; the same mention elsewhere is answered,
    and `/define` answers in that channel (an interaction's answer needs no Send Messages)."""
    fake = scene.fake
    quiet = scene.guild.add_text_channel("announcements")
    [bot_role] = [role for role in scene.guild.roles.values() if role.managed]
    quiet.overwrite(bot_role, deny=SEND_MESSAGES)
    async with start_bot(store):
        async with warned("lacks Send Messages there") as records:
            for query in ("rag", "kv cache"):
                await fake.user_message(scene.alice, quiet, f"{fake.bot.mention} {query}")
            # Mentions are answered in order: once this one is, those before it are done with.
            await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
            answered = await fake.wait_for_channel_message(scene.channel)
        assert title_of(answered) == "Retrieval-Augmented Generation (RAG)", answered
        said = [r.getMessage() for r in records]
        assert len(said) == 1, said
        assert "#announcements" in said[0] or str(quiet.id) in said[0], said
        bot_said = [
            m
            for m in fake.store.channel_messages(quiet.id)
            if m["author"]["id"] == str(fake.bot.id)
        ]
        assert bot_said == []
        looked_up = await fake.slash(scene.alice, "define", {"term": "rag"}, channel=quiet)
        assert title_of(await looked_up.final_message()) == "Retrieval-Augmented Generation (RAG)"
