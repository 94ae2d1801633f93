"""Writes during a stop (tests/outsider/PLAN.md, "Writes during a stop (stopgap37)"): left36
answered a `/term` form whose save ended past the stop's deadline for answers; the other writes
whose answer follows the write, tried the same way: another writer holds the database's write
lock as the stop comes, and frees it within the stop (or only once it is over).

The real bot and discord.py against the fake Discord, a real SQLite file."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from bot.discord_app.replies import unfinished_at_stop
from bot.glossary import Glossary
from bot.glossary.interchange import export_bytes
from bot.storage import Store
from bot.term_storage import read_terms
from tests.discord_app.helpers import buttons
from tests.discord_app.term_commands import IDEA, TERM, add_term
from tests.resilience.conftest import StartBot

from .conftest import Scene
from .stopping import Act, told_during_a_stop

T = TypeVar("T")


async def _after(scene: Scene, read: Callable[[Store], Awaitable[T]]) -> T:
    """What the database holds once the bot stopped (its store is closed)."""
    stored = await Store.open(scene.db_path)
    try:
        return await read(stored)
    finally:
        await stored.close()


# The write's lock freed within the stop (answered as ever), or only once the stop is over
# (told the change is whole or not at all, and where to check).
IN_THE_STOP = pytest.mark.parametrize("in_the_stop", [True, False], ids=["ends", "outlasts"])


def _answered(told: list[str], in_the_stop: bool, done: str, doing: str, check: str) -> None:
    assert told == [done if in_the_stop else unfinished_at_stop(doing, check)], told


def _whole(in_the_stop: bool, stored: object, before: object, after: object) -> None:
    """Within the stop the change is made; past it, made whole or not at all."""
    assert stored == after if in_the_stop else stored in (before, after), stored


def _terms(scene: Scene) -> Callable[[Store], Awaitable[list[str]]]:
    async def titles(store: Store) -> list[str]:
        return [t.title for t in await read_terms(store, scene.guild.id)]

    return titles


def _aliases(scene: Scene) -> Callable[[Store], Awaitable[list[str]]]:
    async def texts(store: Store) -> list[str]:
        return [a.text for a in await store.list_aliases(scene.guild.id)]

    return texts


@IN_THE_STOP
async def test_a_removal_confirmed_during_a_stop_is_answered(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    in_the_stop: bool,
) -> None:
    """`/term remove`'s Remove clicked as the stop came: removed, and nothing said."""
    fake = scene.fake
    async with start_bot(store) as bot:
        await add_term(scene)
        asked = await fake.slash(
            scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
        )
        prompt = await asked.final_message()
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "change_terms",
            lambda: fake.click(scene.moderator, prompt, buttons(prompt)["Remove"]),
            released_in_the_stop=in_the_stop,
        )
    _whole(in_the_stop, await _after(scene, _terms(scene)), ["Zorblax"], [])
    _answered(told, in_the_stop, "Removed “Zorblax”.", "removing this term", "with `/define`")


def _alias_add(scene: Scene) -> Act:
    return lambda: scene.fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "qq zorbo", "term": "kv cache"},
        channel=scene.channel,
    )


@IN_THE_STOP
async def test_an_alias_added_during_a_stop_is_answered(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    in_the_stop: bool,
) -> None:
    async with start_bot(store) as bot:
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "add_alias",
            _alias_add(scene),
            released_in_the_stop=in_the_stop,
        )
    _whole(in_the_stop, await _after(scene, _aliases(scene)), [], ["qq zorbo"])
    done = "Added: “qq zorbo” now opens **KV Cache** in this server."
    _answered(told, in_the_stop, done, "adding this alias", "with `/alias list`")


@IN_THE_STOP
async def test_an_alias_removed_during_a_stop_is_answered(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    in_the_stop: bool,
) -> None:
    async with start_bot(store) as bot:
        added = await _alias_add(scene)()
        assert (await added.final_message())["content"].startswith("Added"), "the alias"
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "remove_alias",
            lambda: scene.fake.slash(
                scene.moderator, "alias remove", {"alias": "qq zorbo"}, channel=scene.channel
            ),
            released_in_the_stop=in_the_stop,
        )
    _whole(in_the_stop, await _after(scene, _aliases(scene)), ["qq zorbo"], [])
    done = "Removed “qq zorbo”."
    _answered(told, in_the_stop, done, "removing this alias", "with `/alias list`")


@IN_THE_STOP
async def test_a_suggestion_rejected_during_a_stop_is_answered(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    in_the_stop: bool,
) -> None:
    fake = scene.fake
    async with start_bot(store) as bot:
        handle = await fake.slash(scene.alice, "suggest", {"term": "blorp"}, channel=scene.channel)
        await handle.response()
        sent = await fake.submit_modal(scene.alice, handle, {"definition": IDEA})
        assert (await sent.final_message())["content"].startswith("Thanks!")
        review = await fake.slash(scene.moderator, "term review", {}, channel=scene.channel)
        shown = await review.final_message()
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "decide_suggestion",
            lambda: fake.click(scene.moderator, shown, buttons(shown)["Reject"]),
            released_in_the_stop=in_the_stop,
        )

    async def waiting(store: Store) -> list[str]:
        return [s.title for s in await store.open_suggestions(scene.guild.id)]

    _whole(in_the_stop, await _after(scene, waiting), ["blorp"], [])
    done = "Rejected the suggestion; the member was told privately."
    _answered(told, in_the_stop, done, "rejecting this suggestion", "with `/term log`")


@IN_THE_STOP
async def test_an_import_during_a_stop_is_answered(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    glossary: Glossary,
    monkeypatch: pytest.MonkeyPatch,
    in_the_stop: bool,
) -> None:
    """`/term import` of a file that replaces Zorblax by Zorb."""
    fake = scene.fake
    async with start_bot(store) as bot:
        await add_term(scene)
        [zorblax] = await read_terms(store, scene.guild.id)
        zorb = zorblax.model_copy(update={"id": "zorb", "title": "Zorb", "aliases": ()})
        upload = fake.add_attachment("terms.toml", export_bytes([zorb], glossary))
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "change_terms",
            lambda: fake.slash(
                scene.moderator, "term import", {"file": upload}, channel=scene.channel
            ),
            released_in_the_stop=in_the_stop,
        )
    _whole(in_the_stop, await _after(scene, _terms(scene)), ["Zorblax"], ["Zorb"])
    told = [t.split("\n")[0] for t in told]
    done = "Imported: 1 added, 0 changed, 1 removed."
    _answered(told, in_the_stop, done, "importing this file", "with `/term export`")


async def test_a_term_edited_during_a_stop_is_answered(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/term edit`'s form is `/term add`'s (left36): answered already; tried, ok."""
    fake = scene.fake
    async with start_bot(store) as bot:
        await add_term(scene)
        opened = await fake.slash(
            scene.moderator, "term edit", {"term": "zorblax"}, channel=scene.channel
        )
        await opened.response()
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "change_terms",
            lambda: fake.submit_modal(scene.moderator, opened, {**TERM, "title": "Zorblax Two"}),
            released_in_the_stop=True,
        )
    assert await _after(scene, _terms(scene)) == ["Zorblax Two"]
    assert [t.split(" in ")[0] for t in told] == ["Saved **Zorblax Two**"], told


async def test_a_suggestion_accepted_during_a_stop_is_answered(
    scene: Scene, start_bot: StartBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Accept… opens `/term add`'s form (left36): answered already; tried, ok."""
    fake = scene.fake
    async with start_bot(store) as bot:
        handle = await fake.slash(scene.alice, "suggest", {"term": "blorp"}, channel=scene.channel)
        await handle.response()
        sent = await fake.submit_modal(scene.alice, handle, {"definition": IDEA})
        assert (await sent.final_message())["content"].startswith("Thanks!")
        review = await fake.slash(
            scene.moderator, "term review", {"category": "Fundamentals"}, channel=scene.channel
        )
        shown = await review.final_message()
        accept = await fake.click(scene.moderator, shown, buttons(shown)["Accept…"])
        await accept.response()
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "change_terms",
            lambda: fake.submit_modal(
                scene.moderator, accept, {"title": "Blorp", "definition": IDEA}
            ),
            released_in_the_stop=True,
        )
    assert await _after(scene, _terms(scene)) == ["Blorp"], told
    assert [t.split(" in ")[0] for t in told] == ["Added **Blorp**"], told


@IN_THE_STOP
async def test_a_suggestion_sent_during_a_stop_is_answered(
    scene: Scene,
    start_bot: StartBot,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    in_the_stop: bool,
) -> None:
    """A member's `/suggest` form sent as the stop came."""
    fake = scene.fake
    async with start_bot(store) as bot:
        handle = await fake.slash(scene.alice, "suggest", {"term": "blorp"}, channel=scene.channel)
        await handle.response()
        told = await told_during_a_stop(
            scene,
            bot,
            store,
            monkeypatch,
            "add_suggestion",
            lambda: fake.submit_modal(scene.alice, handle, {"definition": IDEA}),
            released_in_the_stop=in_the_stop,
        )

    async def waiting(store: Store) -> list[str]:
        return [s.title for s in await store.open_suggestions(scene.guild.id)]

    _whole(in_the_stop, await _after(scene, waiting), [], ["blorp"])
    done = (
        "Thanks! “blorp” is with this server's moderators. "
        "I'll tell you privately what they decide, if your DMs are open."
    )
    _answered(told, in_the_stop, done, "sending this suggestion", "with this server's moderators")
