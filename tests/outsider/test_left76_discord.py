"""left76 (tests/outsider/PLAN.md, "left76"): what this session's product reviews noticed and
left, driven through the fake Discord."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs import stats
from bot.storage import Store
from tests.discord_app.helpers import selects
from tests.discord_app.term_commands import add_term, edit_answer

from .conftest import Scene


async def _renamed_beside_its_old_title(scene: Scene) -> None:
    """ "Quuxnet" renamed "Quux Mesh" (its id stays "quuxnet"), then a new term written under
    the old title "Quuxnet" (id "quuxnet-2")."""
    said = await add_term(scene, {"title": "Quuxnet", "definition": "A network of quuxes."})
    assert said["content"].startswith("Added **Quuxnet**"), said
    said = await edit_answer(scene, "quuxnet", {"title": "Quux Mesh"})
    assert said.startswith("Saved **Quux Mesh**"), said
    said = await add_term(scene, {"title": "Quuxnet", "definition": "The old quux network."})
    assert said["content"].startswith("Added **Quuxnet**"), said


async def _asked(scene: Scene, command: str, options: dict[str, str]) -> str:
    handle = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
    return str((await handle.final_message())["content"])


async def test_a_typed_term_name_finds_the_term_of_that_title_not_a_renamed_term_s_id(
    scene: Scene, bot: GlossaryBot
) -> None:
    """left76: TYPED (not picked), `/term remove term:quuxnet` acted on Quux Mesh, whose id is
    "quuxnet", because the id was matched before the titles; /term edit the same, and
    /alias add's target. A typed name finds what a member sees: the title first. Picked from
    the list, Quux Mesh is still the one acted on."""
    await _renamed_beside_its_old_title(scene)
    said = await _asked(scene, "term remove", {"term": "quuxnet"})
    assert said.startswith("Remove “Quuxnet”"), said
    said = await edit_answer(scene, "Quuxnet", {"definition": "The old quux network, edited."})
    assert said.startswith("Saved **Quuxnet**"), said
    said = await _asked(scene, "alias add", {"alias": "zqold", "term": "quuxnet"})
    assert said == "Added: “zqold” now opens **Quuxnet** in this server.", said

    handle = await scene.fake.autocomplete(
        scene.moderator, "term remove", {"term": "quux"}, focused="term", channel=scene.channel
    )
    picked = next(c for c in await handle.choices() if c["name"] == "Quux Mesh")
    said = await _asked(scene, "term remove", {"term": picked["value"]})
    assert said.startswith("Remove “Quux Mesh”"), said
    handle = await scene.fake.autocomplete(
        scene.moderator,
        "alias add",
        {"alias": "zqmesh", "term": "quux m"},
        focused="term",
        channel=scene.channel,
    )
    picked = next(c for c in await handle.choices() if c["name"] == "Quux Mesh")
    said = await _asked(scene, "alias add", {"alias": "zqmesh", "term": picked["value"]})
    assert "Quux Mesh" in said, said


async def test_stats_searches_its_misses_off_the_event_loop(
    scene: Scene, bot: GlossaryBot, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """left76: `/stats` read each of up to 25 misses through search on the event loop (a long
    question's ~0.1 s, every other server's answers waiting); now in a thread, as /alias add's
    box does. The list and its menu are as they were."""
    store.record_miss(scene.guild.id, "kv chache")
    store.record_miss(scene.guild.id, "zorblaxian widgetry")
    searched_in: list[int] = []
    answered = stats.miss_answered

    def recorded(*args: Any) -> bool:
        searched_in.append(threading.get_ident())
        return answered(*args)

    monkeypatch.setattr(stats, "miss_answered", recorded)
    handle = await scene.fake.slash(scene.moderator, "stats", {}, channel=scene.channel)
    message = await handle.final_message()
    assert len(searched_in) == 2, searched_in
    assert threading.get_ident() not in searched_in  # the event loop's thread
    [menu] = selects(message)
    assert [o["label"] for o in menu["options"]] == ["“kv chache” → KV Cache"], menu
