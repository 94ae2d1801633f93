"""Review of outsider49 and review50 (tests/outsider/PLAN.md, "Review of outsider49 and
review50 (review51)"): their fixes attacked as a hostile, unlucky or busy server would, each
fix's test failing before it."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import RESAID_AFTER, DefineCog
from bot.discord_app.term_drafts import Drafts
from bot.search.local import LocalGlossary
from bot.storage import StorageError, Store
from tests.discord_app.helpers import buttons, define, is_ephemeral
from tests.fake_discord.models import EMBED_LINKS
from tests.resilience.helpers import HANG_GUARD

from .conftest import Scene
from .test_outsider49 import rejected_after

SUGGESTED = {"definition": "What I think it is, in my words."}


async def test_a_dropped_member_fetch_after_a_refused_dm_still_answers_the_moderator(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O2 (outsider49): a DM refused, the bot asks Discord whether the member is still there;
    that request's connection dropped (aiohttp's ServerDisconnectedError, which discord.py lets
    through) and the moderator's Reject, written, answered "Something went wrong". The member
    is said to be untold, as for any other failure of that question."""
    fake = scene.fake

    def refused_and_dropped() -> None:
        fake.fail_next("POST", "/channels/{channel_id}/messages", status=403)  # Discord's refusal
        fake.drop_next("GET", "/guilds/{guild_id}/members/{user_id}", times=2)  # retried once

    said = await rejected_after(scene, refused_and_dropped)
    assert "Rejected the suggestion; the member could not be told (DMs closed)." in said, said


async def test_a_dm_whose_connection_dropped_is_not_said_to_meet_closed_dms(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O2 (outsider49): only Discord's refusal (403) says DMs are closed or the member left.
    A DM whose connection dropped (or Discord failing) raised past the written decision
    ("Something went wrong"); caught, it would have been "DMs closed", a setting the member
    may never have changed. The moderator reads that Discord did not answer."""
    fake = scene.fake
    dropped = "POST", "/channels/{channel_id}/messages"  # the DM (a POST: not retried)
    said = await rejected_after(scene, lambda: fake.drop_next(*dropped))
    assert "Rejected the suggestion; the member could not be told (Discord did not answer)." in (
        said
    ), said
    assert not [p for _, p in fake.requests if p.endswith(f"/members/{scene.bob.id}")]


async def test_suggest_opens_its_form_when_define_searches_queue_while_the_server_is_read(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O3 (outsider49): `/suggest NAME` searches the name in `/define`'s worker before the form
    only when the worker is idle, so the form's 3 s are never spent waiting. Idle was asked
    before the server's glossary was read, which may wait (a quarter of the read timeout, when
    anything changed): other servers' `/define` searches queued meanwhile (up to 50 each) and
    the name's search waited behind them all, the form past Discord's deadline. Here one such
    search holds the worker until the form has opened."""
    fake, state = scene.fake, bot.state
    await define(fake, scene.alice, "rag", scene.channel)  # the server is read
    release = threading.Event()
    queued: list[asyncio.Future[Any]] = []
    read = state.servers.local

    async def local(scope: int, **kwargs: Any) -> LocalGlossary:
        got = await read(scope, **kwargs)
        if not queued:  # another server's /define arrives while this one is read
            queued.append(asyncio.ensure_future(state.term_searches.run(1, release.wait)))
            await asyncio.sleep(0)  # its first step: it queues
            assert not state.term_searches.idle()
        return got

    monkeypatch.setattr(state.servers, "local", local)
    try:
        opened = await fake.slash(
            scene.alice, "suggest", {"term": "zorblax"}, channel=scene.channel
        )
        body = await opened.response()  # waits for a hang only (the fake's own bound)
        assert body["type"] == 9, body  # the form; its submit checks the name
    finally:
        release.set()
        await asyncio.gather(*queued)


async def test_a_permission_flipping_often_is_said_again_at_most_once_in_a_while(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """O5 (outsider49): a lost permission is said again once a post showed it given back. A
    channel whose Embed Links an admin's bot (or a hostile admin) flips all day, members
    mentioning the bot between flips, wrote a line to the operator's log every flip. Said
    again now at most once every `RESAID_AFTER` in a channel (the bot's own clock, turned by
    hand here): a loss within it is said at the first mention after it, if still lost. The
    answers themselves are as before."""
    fake, channel = scene.fake, scene.channel
    cog = bot.get_cog("DefineCog")
    assert isinstance(cog, DefineCog)
    now = [0.0]
    cog.clock = lambda: now[0]
    caplog.set_level(logging.WARNING, logger="bot.discord_app.cogs.define")

    async def mention(card: bool) -> None:
        await fake.user_message(scene.alice, channel, f"{fake.bot.mention} what is rag")
        said = await fake.wait_for_channel_message(channel)  # the log's line is written first
        if card:
            assert said["embeds"][0]["title"] == "Retrieval-Augmented Generation (RAG)", said
        else:
            assert "needs the **Embed Links** permission" in said["content"], said

    async def flip(deny: int = 0) -> None:
        channel.overwrite(fake.bot, deny=deny)
        await fake.update_channel(channel)

    def lines() -> int:
        return sum("cannot show cards" in r.getMessage() for r in caplog.records)

    for _ in range(3):  # taken, used without, given back, used with: a line the first time
        await flip(EMBED_LINKS)
        await mention(card=False)
        await flip()
        await mention(card=True)
    assert lines() == 1
    await flip(EMBED_LINKS)
    await mention(card=False)
    assert lines() == 1  # within the while
    now[0] += RESAID_AFTER
    await mention(card=False)  # still taken, a while later: said
    assert lines() == 2


async def test_a_suggestion_refused_at_its_submit_gives_back_what_was_typed(
    scene: Scene, bot: GlossaryBot
) -> None:
    """O3 (outsider49): the checks before the form are skipped when they cannot be made in
    time (a busy worker, a slow database), and two forms may be open at once; their submit
    checks again. Refused there (a suggestion a moment ago, or the name waiting already), the
    member's paragraph was dropped: "Nothing new was queued" and nothing else. It comes back,
    as a form that could not be saved gives it back."""
    fake = scene.fake
    forms = []
    for _ in range(2):  # two forms opened before either is sent
        opened = await fake.slash(scene.alice, "suggest", {}, channel=scene.channel)
        assert (await opened.response())["type"] == 9
        forms.append(opened)
    first = await fake.submit_modal(scene.alice, forms[0], {"title": "zorblax", **SUGGESTED})
    assert (await first.final_message())["content"].startswith("Thanks!")
    for title, said in (("blorptex", "one every 10 minutes"), ("Zorb-lax", "already")):
        typed = {"title": title, "definition": f"My careful words on {title}, **kept**."}
        again = await fake.submit_modal(scene.alice, forms[1], typed)
        content = (await again.final_message())["content"]
        assert said in content, content
        assert content.endswith(
            f"What you typed:\n**title**: {title}\n"
            f"**definition**: My careful words on {title}, \\*\\*kept\\*\\*."
        ), content


async def test_a_suggest_held_up_on_its_way_opens_its_form_without_checking_first(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O3 (outsider49): the checks before the form (the name's search, then the database's
    cooldown and queue, up to a read timeout) ran however late the interaction reached the
    bot: one held up 2.7 s on its way (a gateway backlog) spent up to a second more on them and
    the form came after Discord's 3 s ("The application did not respond"). Now they are made
    only while they leave the form its time (`FORM_SEND`); its submit checks either way. (The fake's deadline is
    lifted: which calls are made is asserted, not how fast.)"""
    fake = scene.fake
    fake.ack_deadline = HANG_GUARD
    await define(fake, scene.alice, "rag", scene.channel)  # on time: how late others are
    asked: list[int] = []
    refusal = store.suggest_refusal

    async def counted(scope: int, user_id: int) -> Any:
        asked.append(user_id)
        return await refusal(scope, user_id)

    monkeypatch.setattr(store, "suggest_refusal", counted)
    late = await fake.slash(
        scene.alice, "suggest", {"term": "zorblax"}, channel=scene.channel, held_up=2.7
    )
    assert (await late.response())["type"] == 9  # the form, with no check first
    assert asked == []
    sent = await fake.submit_modal(scene.alice, late, SUGGESTED)
    assert (await sent.final_message())["content"].startswith("Thanks!")
    on_time = await fake.slash(scene.alice, "suggest", {"term": "blorptex"}, channel=scene.channel)
    assert "one every 10 minutes" in (await on_time.final_message())["content"]
    assert asked == [scene.alice.id]  # checked before the form, in time


async def test_edit_again_on_a_suggestion_answers_in_time_while_the_database_hangs(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """O3 (outsider49): a suggestion the database could not queue keeps the member's text
    behind **Edit again**; after a restart that text is read back from the database. A
    database that hung that read held the button's answer past Discord's 3 s ("This
    interaction failed"), and each press again. Now the read is bounded: the member is told
    the text is still kept, to press again in a moment; nothing is lost."""
    fake = scene.fake
    opened = await fake.slash(scene.alice, "suggest", {"term": "zorblax"}, channel=scene.channel)
    assert (await opened.response())["type"] == 9

    async def unwritable(*args: Any) -> Any:
        raise StorageError("database is locked")

    monkeypatch.setattr(store, "add_suggestion", unwritable)
    sent = await fake.submit_modal(scene.alice, opened, SUGGESTED)
    refused = await sent.final_message()
    assert "Your text is kept" in refused["content"], refused
    bot.state.term_drafts = Drafts(lambda: bot.state.store)  # a restart: nothing in memory
    hung = asyncio.Event()

    async def hanging(*args: Any) -> Any:
        await hung.wait()

    monkeypatch.setattr(store, "term_draft", hanging)
    try:
        pressed = await fake.click(scene.alice, refused, buttons(refused)["Edit again"])
        said = await pressed.final_message()
        assert said["content"].startswith("The database did not answer in time"), said
        assert is_ephemeral(said), said
    finally:
        hung.set()
