"""Leftovers of this session's reviews (tests/outsider/PLAN.md, "Leftovers (left45)"): each
through the real client against the fake Discord, real SQLite or PostgreSQL, or the real
command line; each test failed before its fix."""

from __future__ import annotations

import re

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.test_terms import add_term

from .conftest import Scene


async def _alias_list(scene: Scene, options: dict[str, str]) -> dict[str, object]:
    handle = await scene.fake.slash(scene.moderator, "alias list", options, channel=scene.channel)
    return await handle.final_message()


async def test_alias_list_of_a_whitespace_term_lists_every_alias(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 1 (sweep45): `/alias list term:"   "` answered "There is no term “” in the
    glossary", where `term:""` lists every alias: a term of spaces alone is no term given."""
    await add_term(scene)
    added = await scene.fake.slash(
        scene.moderator,
        "alias add",
        {"alias": "zorbalias", "term": "zorblax"},
        channel=scene.channel,
    )
    await added.final_message()
    every = await _alias_list(scene, {"term": ""})
    assert every["embeds"][0]["title"] == "1 alias in this server", every
    for blank in ("   ", "\u3000", " \t "):
        shown = await _alias_list(scene, {"term": blank})
        assert not shown.get("content"), (blank, shown["content"])
        assert shown["embeds"] == every["embeds"], (blank, shown)


async def _remove_alias(scope_scene: Scene, alias: str) -> str:
    handle = await scope_scene.fake.slash(
        scope_scene.moderator, "alias remove", {"alias": alias}, channel=scope_scene.channel
    )
    message = await handle.final_message()
    assert is_ephemeral(message), message
    return str(message["content"])


async def test_an_alias_removed_with_its_term_says_so(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Item 2 (sweep45): `/term remove` takes the term's aliases with it; `/alias remove` of one
    of them (a stale pick from its autocomplete) answered "This server has no alias
    “zorbalias”.": true, but not why. Now it names the term removed with it, and when; an alias
    removed alone (here one of a bundled entry) says when; one never added is as before."""
    await add_term(scene)
    fake = scene.fake
    for alias, term in (("zorbalias", "zorblax"), ("zorbother", "rag")):
        added = await fake.slash(
            scene.moderator, "alias add", {"alias": alias, "term": term}, channel=scene.channel
        )
        await added.final_message()
    assert (await _remove_alias(scene, "zorbother")) == "Removed “zorbother”."
    asked = await fake.slash(
        scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
    )
    prompt = await asked.final_message()
    clicked = await fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
    await clicked.followups(1)
    said = await _remove_alias(scene, "zorbalias")
    assert re.fullmatch(
        r"This server has no alias “zorbalias”: it was removed with its term “Zorblax” "
        r"<t:\d+:R> \(`/term log` says by whom\)\.",
        said,
    ), said
    said = await _remove_alias(scene, "ZorbOther")
    assert re.fullmatch(
        r"This server has no alias “ZorbOther”: it was removed <t:\d+:R>\.", said
    ), said
    assert (await _remove_alias(scene, "never")) == "This server has no alias “never”."
