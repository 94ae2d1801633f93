"""Forged and raw input (tests/outsider/PLAN.md, "Forged and raw input (forged47)").

What a modified client (or a replay) can send that sweep45's sweep did not: components' custom
ids the bot never sent, modal submits of forms never opened or filled past their inputs, and the
command line run by a user who may not read its files.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app.app import OUTDATED_COMPONENT, OUTDATED_FORM, GlossaryBot
from bot.discord_app.cogs import DYNAMIC_ITEMS
from bot.discord_app.cogs.moderators import KEPT
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons, define, embed_of, is_ephemeral
from tests.discord_app.term_commands import add_term, open_add
from tests.fake_discord import FakeChannel, FakeUser, InteractionHandle
from tests.fake_discord.interactions import base_payload
from tests.resilience.botproc import CLI_ENV, ROOT, BotProcess, glossary_bot_run
from tests.resilience.conftest import without_permission_override

from .conftest import Scene
from .test_round20 import _database

JSON = dict[str, Any]
MESSAGE_COMPONENT, MODAL_SUBMIT = 3, 5
BUTTON, STRING_SELECT, TEXT_INPUT, ACTION_ROW = 2, 3, 4, 1
MODAL, DEFERRED_UPDATE, UPDATE_MESSAGE = 9, 6, 7
# What no press or submit here may change: everything but the counts of lookups and misses and
# the drafts of forms (a refused form's text is kept for its Edit again).
COUNTS = ("lookups", "misses", "miss_hours", "counters", "flush_marks", "term_drafts")


def written(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(db) as con:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            t: sorted(map(repr, con.execute(f"SELECT * FROM {t}").fetchall()))
            for t in tables
            if t not in COUNTS
        }


JUNK = ("\u00e9\u202ejunk" * 20)[:100]
# Seconds `Forger.answer` (and the fake's own waits) wait for an answer: a bound on a hang only,
# not a speed check (flake63: sweep45's 10 s failed under other jobs' load). Discord's 3 s for
# the first response stays the fake's to hold the bot to: a late one is refused and recorded.
HANG = 60


def matches_a_template(custom_id: str) -> bool:
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)


def forged_ids(
    presser: FakeUser, other: FakeUser, suggestion: int, elsewhere: int
) -> Iterator[tuple[str, str, int]]:
    """(label, custom id, component type): each of the bot's prefixes with garbage after it,
    another server's suggestion, a removed term, huge numbers, junk, nothing, a button's id as a
    menu's and the reverse."""
    me, them = presser.id, other.id
    huge = "9" * 20
    for who, uid in (("own", me), ("another's", them)):
        yield f"open a removed term ({who} id)", f"gb:open:zorblax-removed:{uid}", BUTTON
        yield f"open the server's term ({who} id)", f"gb:open:zorblax:{uid}", BUTTON
        yield f"plain words ({who} id)", f"gb:plain:kv-cache:{uid}:1", BUTTON
        yield f"pick menu ({who} id)", f"gb:pick:{uid}", STRING_SELECT
        yield f"edit again ({who} id)", f"gb:term-again:{uid}:0123456789ab", BUTTON
        yield f"category pick ({who} id)", f"gb:term-cat:{uid}:0123456789ab", STRING_SELECT
        yield f"remove ({who} id)", f"gb:term-rm:{uid}:0123456789abcdef:zorblax", BUTTON
        yield f"log page ({who} id)", f"gb:term-log:{uid}:{'9' * 18}", BUTTON
        yield f"suggest again ({who} id)", f"gb:sugg-again:{uid}:0123456789ab", BUTTON
        yield f"download aliases ({who} id)", f"gb:alias-all:{uid}", BUTTON
        yield f"download a removed term's aliases ({who} id)", f"gb:alias-all:{uid}:zorb-x", BUTTON
    yield "sources of a removed term", "gb:src:zorblax-removed", BUTTON
    yield "miss to alias", "gb:miss2alias", STRING_SELECT
    yield "accept this server's suggestion", f"gb:sugg:ok:{suggestion}:", BUTTON
    yield "reject this server's suggestion", f"gb:sugg:no:{suggestion}:", BUTTON
    yield "accept another server's suggestion", f"gb:sugg:ok:{elsewhere}:0", BUTTON
    yield "reject another server's suggestion", f"gb:sugg:no:{elsewhere}:99", BUTTON
    yield "reject a huge id", f"gb:sugg:no:{huge}:", BUTTON
    yield "open with a huge owner", f"gb:open:kv-cache:{huge}", BUTTON
    yield "suggest with mentions", "gb:suggest:@everyone <@&1> **zorb**", BUTTON
    yield "suggest, empty", "gb:suggest:", BUTTON
    yield "prefix, then garbage", "gb:open:\u202eKV\x00:x:y", BUTTON
    yield "100 characters of junk", JUNK, BUTTON
    yield "the bare prefix", "gb:", BUTTON
    yield "empty", "", BUTTON
    yield "a menu's id on a button", f"gb:pick:{me}", BUTTON
    yield "a button's id on a menu", f"gb:open:kv-cache:{me}", STRING_SELECT
    yield "reject on a menu", f"gb:sugg:no:{suggestion}:", STRING_SELECT


class Forger:
    """Sends hand-made interactions and holds what each got to the rules: a short private
    answer, never an error id, a public message, a ping or an ERROR logged."""

    def __init__(self, scene: Scene, caplog: pytest.LogCaptureFixture) -> None:
        self.fake = scene.fake
        self.fake.wait_timeout = HANG  # the fake's waits too: hangs only (a fake per test)
        self.caplog = caplog
        self.faults: list[str] = []

    async def component(
        self, user: FakeUser, message: JSON, custom_id: str, kind: int
    ) -> InteractionHandle:
        """``custom_id`` pressed on ``message`` (as Discord has it now), whatever is on it."""
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if kind == STRING_SELECT:
            data["values"] = ["kv-cache"]
        payload = base_payload(
            self.fake.world,
            kind=MESSAGE_COMPONENT,
            data=data,
            user=user,
            channel=self.fake._channel(int(message["channel_id"])),
            message=copy.deepcopy(self.fake.message(int(message["id"]))),
        )
        return await self.fake.raw_interaction(payload, target_message_id=int(message["id"]))

    async def form(self, user: FakeUser, channel: FakeChannel, data: JSON) -> InteractionHandle:
        payload = base_payload(
            self.fake.world, kind=MODAL_SUBMIT, data=data, user=user, channel=channel
        )
        return await self.fake.raw_interaction(payload)

    async def answer(self, where: str, handle: InteractionHandle) -> str:
        """The private answer ``handle`` got ("" and a fault when it is not one)."""
        text = ""
        try:
            async with asyncio.timeout(HANG):
                body = await handle.response()
                if body["type"] in (MODAL, UPDATE_MESSAGE, DEFERRED_UPDATE):
                    self.fault(where, f"answered with a callback of type {body['type']}")
                else:
                    message = await handle.final_message()
                    text = str(message.get("content") or "")
                    if "error id" in text or "Something went wrong" in text:
                        self.fault(where, f"answered {text!r}")
                    if not is_ephemeral(message):
                        self.fault(where, f"a public answer: {text[:200]!r}")
        except TimeoutError:
            self.fault(where, f"no answer ({handle._state()})")
        self.logged(where)
        return text

    def logged(self, where: str) -> None:
        for violation in self.fake.pop_violations():
            self.fault(where, f"the fake recorded {violation}")
        for record in self.caplog.records:
            if record.exc_info or record.levelno >= logging.ERROR:
                self.fault(where, f"logged {record.levelname}: {record.getMessage()[:300]}")
        self.caplog.clear()

    def fault(self, where: str, what: str) -> None:
        self.faults.append(f"{where}: {what}")

    def summary(self) -> str:
        lines = "\n  ".join(self.faults)
        return f"{len(self.faults)} fault(s):\n  {lines}"


def place_of(scene: Scene, place: str, user: FakeUser) -> FakeChannel:
    if place == "server":
        return scene.channel
    if place == "DM":
        return scene.fake.dm_channel(user)
    # Made after the bot started: a channel it never heard of.
    return scene.guild.add_thread(scene.channel, f"thread of {user.username}", scene.bob)


@pytest.mark.parametrize("place", ["server", "DM", "thread"])
async def test_forged_custom_ids_are_answered_privately_or_dropped(
    scene: Scene,
    bot: GlossaryBot,
    store: Store,
    caplog: pytest.LogCaptureFixture,
    place: str,
) -> None:
    """Every custom id the bot never sent, pressed on a card by a moderator and by a member: an
    id that fits one of the bot's templates but is not on the message is dropped by discord.py
    (`ViewStore.schedule_dynamic_item_call` looks for it there, and for its component type);
    any other gets "no longer works" privately (test_malformed). Nothing is written, the card
    is left as it was, nothing is logged as an error."""
    caplog.set_level(logging.WARNING)
    fake = scene.fake
    await add_term(scene)
    await store.add_suggestion(scene.guild.id, scene.bob.id, "Flurb", "A flurb, waiting.")
    await store.add_suggestion(scene.other_guild.id, scene.alice.id, "Blorp", "A blorp, waiting.")
    [suggestion] = await store.open_suggestions(scene.guild.id)
    [elsewhere] = await store.open_suggestions(scene.other_guild.id)
    # Each settle spends one of the bot's gateway sends (110 a minute): ~80 presses would come
    # close. Each answer is waited for, and the ids dropped are read after a later answer.
    fake.settle_before_actions = False
    forger = Forger(scene, caplog)
    before = written(scene.db_path)
    dropped = 0
    for presser in (scene.moderator, scene.alice):
        channel = place_of(scene, place, presser)
        _, card = await define(fake, presser, "kv cache", channel)
        quiet = []
        for label, custom_id, kind in forged_ids(presser, scene.bob, suggestion.id, elsewhere.id):
            where = f"{place}, {presser.username}: {label} {custom_id!r}"
            handle = await forger.component(presser, card, custom_id, kind)
            if matches_a_template(custom_id):
                quiet.append((where, handle))
            elif await forger.answer(where, handle) != OUTDATED_COMPONENT:
                forger.fault(where, "not the answer to a button no handler knows")
        # Read after every forged one: their tasks ran, any answer begun.
        _, later = await define(fake, presser, "rag", channel)
        assert embed_of(later)["title"].endswith("(RAG)")
        for where, handle in quiet:
            if handle.records:
                forger.fault(where, f"answered: {handle._state()}")
            forger.logged(where)
        dropped += len(quiet)
        assert fake.message(int(card["id"])) == card  # left as it was
    assert written(scene.db_path) == before
    assert not forger.faults, forger.summary()
    assert dropped > 40, dropped  # the templates' ids were sent


def text_input(custom_id: str, value: Any, n: int) -> JSON:
    return {
        "type": ACTION_ROW,
        "id": n,
        "components": [{"type": TEXT_INPUT, "id": n + 1, "custom_id": custom_id, "value": value}],
    }


def submitted(values: dict[str, Any]) -> list[JSON]:
    return [text_input(k, v, 2 * n + 1) for n, (k, v) in enumerate(values.items())]


async def form_submitted(scene: Scene, custom_id: str, values: dict[str, Any]) -> InteractionHandle:
    """A form submit of `values` under `custom_id`, sent raw by the moderator in the channel (the
    bot need not have opened it): the interaction's handle."""
    payload = base_payload(
        scene.fake.world,
        kind=MODAL_SUBMIT,
        data={"custom_id": custom_id, "components": submitted(values)},
        user=scene.moderator,
        channel=scene.channel,
    )
    return await scene.fake.raw_interaction(payload)


TERM_VALUES = {
    "title": "Forgedterm",
    "definition": "A term added by a form the bot never opened.",
    "boundary": "",
    "other_names": "",
    "related": "",
}
SUGGESTION_VALUES = {"title": "Forgedsugg", "definition": "A suggestion never opened as a form."}


def forged_forms(me: int, them: int) -> Iterator[tuple[str, JSON]]:
    """(label, data) of form submits the bot never opened: its forms' ids for the presser, for
    another member, a huge id, garbage after them, the bare prefix, a button's id, nothing."""
    huge = "9" * 20
    nonce = "0123456789ab"
    ids = {
        "term add, own id, never opened": f"gb:term:{me}:{nonce}:a",
        "term edit, own id, never opened": f"gb:term:{me}:{nonce}:e",
        "term add, another's id": f"gb:term:{them}:{nonce}:a",
        "term add, huge id": f"gb:term:{huge}:{nonce}:a",
        "term, garbage after": f"gb:term:{me}:{nonce}:a:\u202ex",
        "term, the bare prefix": "gb:term:",
        "suggestion, own id, never opened": f"gb:suggestion:{me}",
        "suggestion, another's id": f"gb:suggestion:{them}",
        "suggestion, huge id": f"gb:suggestion:{huge}",
        "suggestion, garbage after": f"gb:suggestion:{me}x",
        "a button's id": f"gb:open:kv-cache:{me}",
        "empty": "",
        "100 characters of junk": JUNK,
    }
    for label, custom_id in ids.items():
        values = SUGGESTION_VALUES if "suggestion" in label else TERM_VALUES
        yield f"{label} {custom_id!r}", {"custom_id": custom_id, "components": submitted(values)}


@pytest.mark.parametrize("place", ["server", "DM", "thread"])
async def test_forged_form_submits_are_answered_privately(
    scene: Scene,
    bot: GlossaryBot,
    caplog: pytest.LogCaptureFixture,
    place: str,
) -> None:
    """Form submits the bot never opened, by a moderator and by a member: each answered
    privately. Only a member's own suggestion form, in a server, writes (a suggestion queued,
    as `/suggest` would: the store's cooldown and cap hold); a term form is the moderator's
    own, checked as any save (here refused: a form never opened has no category)."""
    caplog.set_level(logging.WARNING)
    forger = Forger(scene, caplog)
    for presser in (scene.moderator, scene.alice):
        channel = place_of(scene, place, presser)
        for label, data in forged_forms(presser.id, scene.bob.id):
            where = f"{place}, {presser.username}: {label}"
            before = written(scene.db_path)
            handle = await forger.form(presser, channel, data)
            text = await forger.answer(where, handle)
            after = written(scene.db_path)
            changed = sorted(k for k, v in after.items() if v != before[k])
            if label.startswith("suggestion, own id") and place != "DM":
                assert changed == ["suggestions"], where
                assert text.startswith("Thanks! “Forgedsugg” is with"), where
            else:
                assert changed == [], where
    assert not forger.faults, forger.summary()


async def test_a_moderators_private_controls_pressed_by_a_member_change_nothing(
    scene: Scene, bot: GlossaryBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A replay of a moderator's private controls by a member (Discord shows them to the
    moderator alone: a client that took their ids): Accept… and Reject of `/term review`, the
    Remove of `/term remove`. Each refused privately, nothing written; the moderator's own
    Reject, delivered twice, rejects once."""
    caplog.set_level(logging.WARNING)
    fake = scene.fake
    forger = Forger(scene, caplog)
    await add_term(scene)
    await store.add_suggestion(scene.guild.id, scene.bob.id, "Flurb", "A flurb, waiting.")
    review = await (
        await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
    ).final_message()
    removal = await (
        await fake.slash(scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel)
    ).final_message()
    before = written(scene.db_path)
    for message in (review, removal):
        for label, custom_id in buttons(message).items():
            where = f"{label} pressed by a member"
            text = await forger.answer(where, await fake.click(scene.alice, message, custom_id))
            if "Nothing was changed" not in text and "Only the moderator" not in text:
                forger.fault(where, f"answered {text!r}")
    assert written(scene.db_path) == before
    [waiting] = await store.open_suggestions(scene.guild.id)
    reject = await fake.click(scene.moderator, review, buttons(review)["Reject"])
    await fake.redeliver(reject)
    assert "Rejected" in (await reject.final_message())["content"]
    forger.logged("the moderator's Reject, delivered twice")
    decided = await store.suggestion(scene.guild.id, waiting.id)
    assert decided is not None
    assert decided.status == "rejected"
    assert not forger.faults, forger.summary()


async def test_a_form_no_handler_knows_is_answered_with_what_was_typed(
    scene: Scene, bot: GlossaryBot, caplog: pytest.LogCaptureFixture
) -> None:
    """A form submit whose custom id fits neither form the bot opens (`/term add|edit`,
    `/suggest`), from a release that named its forms otherwise or a hand-made client, went
    unanswered: Discord showed "This interaction failed" and what was typed was gone. A button no
    handler knows was answered (test_malformed); a form is now too, privately, with its text."""
    caplog.set_level(logging.WARNING, logger="bot")
    me = scene.moderator.id
    typed = {
        "title": "Kept <@&123456789012345678> term",
        "definition": "What the **moderator** typed @everyone.",
    }
    for custom_id in (
        f"gb:term:{me}:0123456789ab:a:\u202ex",
        "gb:term:",
        f"gb:suggestion:{me}x",
        "gb:term-form:1",  # an older release's form
        f"gb:open:kv-cache:{me}",
        "",
        ("\u00e9\u202ejunk" * 20)[:100],
    ):
        handle = await form_submitted(scene, custom_id, typed)
        answer = await handle.final_message()
        assert is_ephemeral(answer), answer
        content = answer["content"]
        assert content.startswith(OUTDATED_FORM), content
        # what was typed, inert (its "<" escaped too since review48)
        assert "Kept \\<@\u200b&123456789012345678> term" in content, content
        assert "\\*\\*moderator\\*\\*" in content, content
        assert any(str(handle.id) in r.getMessage() for r in caplog.records), custom_id
    assert not scene.fake.pop_violations()  # no ping, within Discord's lengths


# --- raw form inputs: past their lengths, missing, extra -----------------------------------------


async def submit_raw(
    forger: Forger, user: FakeUser, opened: InteractionHandle, values: dict[str, Any]
) -> str:
    """The form ``opened`` submitted with ``values`` as they are: no check of what a client
    would let through (its inputs' lengths, a required input, an input it has)."""
    custom_id = (await opened.response())["data"]["custom_id"]
    data = {"custom_id": custom_id, "components": submitted(values)}
    channel = forger.fake._channel(int(opened.payload["channel_id"]))
    return await forger.answer(str(values)[:80], await forger.form(user, channel, data))


async def test_term_form_inputs_past_their_lengths_are_refused_by_the_save(
    scene: Scene, bot: GlossaryBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """`/term add`'s form sent raw: each input one past its `max_length` (and far past), a
    required one missing, an input the form never had. The save's own checks refuse what the
    form would not take (limits.TERM_FORM, the same rule as `/term import`), naming the field;
    an input the form never had is not read."""
    caplog.set_level(logging.WARNING)
    forger = Forger(scene, caplog)
    past = {
        "title": "T" * 257,
        "definition": "d" * 4001,
        "boundary": "b" * 1025,
        "other_names": ", ".join(f"other name {n}" for n in range(300)),  # 4,580
        "related": ", ".join(f"rel{n}" for n in range(700)),  # 4,578
    }
    for key, value in past.items():
        for text in (value, value * 3):
            opened = await open_add(scene, scene.moderator, category="Fundamentals")
            answer = await submit_raw(forger, scene.moderator, opened, {**TERM_VALUES, key: text})
            assert answer.startswith("Nothing was saved:"), (key, answer)
            assert "longer than" in answer, (key, answer)
            assert answer.endswith(KEPT), (key, answer)
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    without = {k: v for k, v in TERM_VALUES.items() if k != "definition"}
    answer = await submit_raw(forger, scene.moderator, opened, without)
    assert "empty definition" in answer, answer
    assert await read_terms(store, scene.guild.id) == []
    opened = await open_add(scene, scene.moderator, category="Fundamentals")
    extra = {**TERM_VALUES, "evil": "@everyone " * 500, "summary": "Not a field of the form."}
    answer = await submit_raw(forger, scene.moderator, opened, extra)
    assert answer.startswith("Added **Forgedterm**"), answer
    [term] = await read_terms(store, scene.guild.id)
    assert term.summary is None  # the form has no summary: the command's option gives it
    assert not forger.faults, forger.summary()


async def open_suggest(scene: Scene, member: FakeUser) -> InteractionHandle:
    opened = await scene.fake.slash(member, "suggest", {}, channel=scene.channel)
    assert (await opened.response())["type"] == MODAL
    return opened


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ({"title": "S" * 101, "definition": "A long enough text."}, "at most 100 characters"),
        ({"title": "S" * 500, "definition": "A long enough text."}, "at most 100 characters"),
        ({"title": "Longy", "definition": "y" * 2001}, "at most 2,000 characters"),
        ({"title": "Shorty", "definition": "x"}, "at least 10 characters"),
        ({"title": "Padded", "definition": "x" + " " * 20}, "at least 10 characters"),
    ],
)
async def test_suggestion_form_inputs_past_their_lengths_are_refused_with_the_text(
    scene: Scene,
    bot: GlossaryBot,
    store: Store,
    caplog: pytest.LogCaptureFixture,
    values: dict[str, str],
    said: str,
) -> None:
    """`/suggest`'s form sent raw past its inputs' lengths (term 1-100, words 10-2,000; Discord's
    client keeps to them, and its published spec says nothing of a check on submit) was cut to
    fit and queued, the member thanked for a text they did not write (“SSS…” of 100), or queued
    with a word where the form asks for ten. Now refused, nothing queued, the text given back,
    as the term form's save refuses what its inputs would not take."""
    caplog.set_level(logging.WARNING)
    forger = Forger(scene, caplog)
    answer = await submit_raw(forger, scene.alice, await open_suggest(scene, scene.alice), values)
    assert said in answer, answer
    assert "Nothing was queued" in answer, answer
    assert values["title"][:50] in answer, answer  # given back
    assert await store.open_suggestions(scene.guild.id) == []
    assert not forger.faults, forger.summary()


async def test_suggestion_form_with_inputs_missing_or_extra(
    scene: Scene, bot: GlossaryBot, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Raw: without its words, without anything, with inputs it never had (their text not
    read): the first two refused, the last queued as typed in the form's own inputs."""
    caplog.set_level(logging.WARNING)
    forger = Forger(scene, caplog)
    for values in ({"title": "Nodef"}, {}):
        twin = scene.fake.add_user(f"member{len(values)}")
        scene.guild.add_member(twin)
        answer = await submit_raw(forger, twin, await open_suggest(scene, twin), values)
        assert answer == "A suggestion needs the term and what it means.", answer
    extra = {**SUGGESTION_VALUES, "evil": "@everyone", "definition2": "x" * 5000}
    answer = await submit_raw(forger, scene.alice, await open_suggest(scene, scene.alice), extra)
    assert answer.startswith("Thanks! “Forgedsugg”"), answer
    [queued] = await store.open_suggestions(scene.guild.id)
    assert (queued.title, queued.definition) == tuple(SUGGESTION_VALUES.values())
    assert not forger.faults, forger.summary()


# --- the command line, by a user who may not read its files --------------------------------------

RUN_ENV = {
    "DISCORD_TOKEN": "x.y.z",
    "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10",  # never reached: the data fails first
    "DATABASE_PATH": "g.db",
}
# (label, arguments, settings, the name the one line must say)
UNREADABLE = [
    ("check, a file", ("check", "mode000.toml"), {}, "mode000.toml"),
    ("check, a folder", ("check", "locked"), {}, "locked"),
    ("check, a file in a folder", ("check", "locked/data.toml"), {}, "locked/data.toml"),
    ("run, a file", ("run",), {**RUN_ENV, "GLOSSARY_PATHS": "mode000.toml"}, "mode000.toml"),
    ("run, a folder", ("run",), {**RUN_ENV, "GLOSSARY_PATHS": "locked"}, "locked"),
    (
        "run, a file in a folder",
        ("run",),
        {**RUN_ENV, "GLOSSARY_PATHS": "locked/data.toml"},
        "locked/data.toml",
    ),
    (
        "terms import, a file",
        ("terms", "import", "mode000.toml", "--guild", "1"),
        {},
        "mode000.toml",
    ),
    (
        "terms import, a file in a folder",
        ("terms", "import", "locked/data.toml", "--guild", "1"),
        {},
        "locked/data.toml",
    ),
    (
        "aliases import, a file in a folder",
        ("aliases", "import", "locked/a.json"),
        {},
        "locked/a.json",
    ),
    ("stats, a database", ("stats", "--db", "mode000.db"), {}, "mode000.db"),
    ("stats, a database in a folder", ("stats", "--db", "locked/g.db"), {}, "locked/g.db"),
    ("check, a database", ("check", "--db", "mode000.db"), {}, "mode000.db"),
    ("check, a database in a folder", ("check", "--db", "locked/g.db"), {}, "locked/g.db"),
    ("backup, a database", ("backup", "--db", "mode000.db", "copy.db"), {}, "mode000.db"),
    ("backup, into a folder", ("backup", "--db", "g.db", "locked/copy.db"), {}, "locked/copy.db"),
    ("restore, a backup", ("restore", "mode000.db", "--db", "g.db"), {}, "mode000.db"),
    (
        "restore, a backup in a folder",
        ("restore", "locked/g.db", "--db", "g.db"),
        {},
        "locked/g.db",
    ),
    ("restore, into a folder", ("restore", "g.db", "--db", "locked/g.db"), {}, "locked/g.db"),
    ("prune, a database", ("prune", "--older-than", "30", "--db", "mode000.db"), {}, "mode000.db"),
    (
        "migrate-db, a database",
        ("migrate-db", "--from", "mode000.db", "--to", "m.db"),
        {},
        "mode000.db",
    ),
    (
        "terms export, a database",
        ("terms", "export", "--guild", "1", "--db", "mode000.db"),
        {},
        "mode000.db",
    ),
]


def _unreadable_folder(folder: Path, database: Path) -> tuple[Path, ...]:
    """A folder with a database, and a data file, a database and a folder (holding both and an
    alias file) this user may not read or search, those three returned (mode 000 later). The
    databases are copies of `database` (one made per run: each made 0.2-1 s)."""
    data = '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ndefinition = "A test term, unread."\n'
    folder.mkdir()
    shutil.copyfile(database, folder / "g.db")
    locked = folder / "locked"
    locked.mkdir()
    (locked / "data.toml").write_text(data, "utf-8")
    (locked / "a.json").write_text("[]", "utf-8")
    shutil.copyfile(database, locked / "g.db")
    (folder / "mode000.toml").write_text(data, "utf-8")
    shutil.copyfile(database, folder / "mode000.db")
    return locked, folder / "mode000.toml", folder / "mode000.db"


# Each command of UNREADABLE but `run` in turn in one process (a process each cost 1-2 s of
# importing the bot, 5-10 s loaded): `glossary_bot_run_here` as in its own, in its folder.
_EACH_COMMAND = """
import json, sys
from pathlib import Path
from tests.resilience.botproc import glossary_bot_run_here
said = []
for env, cwd, args in json.loads(sys.argv[1]):
    done = glossary_bot_run_here(env, Path(cwd), *args)
    said.append((done.returncode, done.stdout, done.stderr))
print(json.dumps(said))
"""
Done = tuple[subprocess.CompletedProcess[str], Path, bytes]


def _unreadable_runs(
    root: Path, cases: list[tuple[str, tuple[str, ...], dict[str, str]]]
) -> dict[str, Done]:
    """Each (label, arguments, settings) run with file modes enforced, in a folder of its own
    under `root`: what it did, its folder's g.db and that file's bytes before. One case of
    `run` in a process of its own (it sets up signals and logging); other commands one after
    another in one process under setpriv."""
    folders = {label: root / f"case{n}" for n, (label, _, _) in enumerate(cases)}
    database = _database(root / "made.db")
    assert sorted(path.name for path in root.iterdir()) == ["made.db"]  # the file alone: whole
    unreadable = [
        path for folder in folders.values() for path in _unreadable_folder(folder, database)
    ]
    before = {label: (folder / "g.db").read_bytes() for label, folder in folders.items()}
    runs = [
        ({**CLI_ENV, "DATABASE_PATH": "g.db", **settings}, str(folders[label]), args)
        for label, args, settings in cases
    ]
    for path in unreadable:
        path.chmod(0)
    try:
        if [args[0] for _, _, args in runs] == ["run"]:
            [(env, cwd, args)] = runs
            done = [glossary_bot_run(env, Path(cwd), *args, prefix=without_permission_override())]
        else:
            assert "run" not in [args[0] for _, _, args in runs]
            each = subprocess.run(
                [
                    *without_permission_override(),
                    sys.executable,
                    "-c",
                    _EACH_COMMAND,
                    json.dumps(runs),
                ],
                env={**CLI_ENV, "PYTHONPATH": str(ROOT)},
                cwd=root,
                capture_output=True,
                text=True,
                timeout=60 * len(runs),
                check=False,
            )
            assert each.returncode == 0, each
            done = [
                subprocess.CompletedProcess(list(args), status, out, err)
                for (_, _, args), (status, out, err) in zip(
                    runs, json.loads(each.stdout), strict=True
                )
            ]
    finally:
        for path in unreadable:
            path.chmod(0o700)
    return {
        label: (did, folders[label] / "g.db", before[label])
        for (label, _, _), did in zip(cases, done, strict=True)
    }


@pytest.fixture(scope="module")
def unreadable_commands(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Done]:
    """The cases of UNREADABLE but `run`'s, together."""
    cases = [(label, args, settings) for label, args, settings, _ in UNREADABLE if args[0] != "run"]
    return _unreadable_runs(tmp_path_factory.mktemp("unreadable"), cases)


@pytest.mark.parametrize(
    ("label", "args", "settings", "name"),
    UNREADABLE,
    ids=[case[0] for case in UNREADABLE],
)
def test_unreadable_files_are_named_in_one_line(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    label: str,
    args: tuple[str, ...],
    settings: dict[str, str],
    name: str,
) -> None:
    """The command line run with file modes enforced (the tests run as root, who reads a mode
    000 file anyway: `setpriv` drops that right, as an operator's own user lacks it) on a data
    file, a database and a folder it may not read or search. Each: a line naming the file as
    given, a non-zero exit, no traceback; the database given to write is left as it was."""
    if args[0] == "run":
        done, db, before = _unreadable_runs(tmp_path, [(label, args, settings)])[label]
    else:
        done, db, before = request.getfixturevalue("unreadable_commands")[label]
    said = done.stdout + done.stderr
    assert done.returncode != 0, done
    assert "Traceback" not in said, said
    [line] = [line for line in said.splitlines() if name in line]  # one line names it
    assert "error" in line, said
    assert "Permission denied" in line or "not readable" in line or "cannot be searched" in line, (
        line
    )
    assert db.read_bytes() == before


@pytest.mark.parametrize("kind", ["a folder it may not search", "a file it may not read"])
async def test_a_database_out_of_reach_at_start_is_one_line_naming_why(
    scene: Scene, tmp_path: Path, kind: str
) -> None:
    """`run` with DATABASE_PATH in a folder this user may not search (mode 000, another uid's
    volume): the bot ran without its database (as designed: /define stays up) but logged
    "cannot open the database data/g.db" with a traceback of three exceptions and no cause
    (`cannot_open` itself raised where it stat()ed the file). Now one line saying why, as for a
    folder it may not write (test_round6); a file it may not read is named in it."""
    folder = tmp_path / "data"
    folder.mkdir()
    await asyncio.to_thread(_database, folder / "g.db")
    unreadable = folder if kind == "a folder it may not search" else folder / "g.db"
    unreadable.chmod(0)
    try:
        async with BotProcess(
            scene.fake, Path("data/g.db"), cwd=tmp_path, prefix=without_permission_override()
        ) as bot:
            handle = await scene.fake.slash(
                scene.alice, "define", {"term": "kv cache"}, channel=scene.channel
            )
            assert (await handle.final_message())["embeds"][0]["title"] == "KV Cache"
    finally:
        unreadable.chmod(0o700)
    assert "Traceback" not in bot.output, bot.output[-3000:]
    [line] = [line for line in bot.lines if "cannot open the database" in line]
    assert f"DATABASE_PATH={folder / 'g.db'}" in line, line
    if kind == "a folder it may not search":
        assert "a folder on its path cannot be searched" in line, line
    else:
        assert "the file data/g.db is not readable by this process" in line, line


@pytest.mark.parametrize("part", ["asked-as", "kinds"])
def test_a_data_folders_part_it_may_not_read_is_named(tmp_path: Path, part: str) -> None:
    """A data folder whose `asked-as/` (or `kinds/`) this user may not list: `check` said all
    was well (glob() passes over a folder it cannot list), and the bot would have started
    without the phrasings (or kinds) in it, not a word said. Now an error naming the folder."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    (data / part).chmod(0)
    try:
        done = glossary_bot_run(
            CLI_ENV, tmp_path, "check", "data", prefix=without_permission_override()
        )
    finally:
        (data / part).chmod(0o700)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "Traceback" not in said, said
    assert f"data/{part}: error: cannot read the folder: Permission denied" in said, said
