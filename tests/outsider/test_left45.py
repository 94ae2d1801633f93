"""Leftovers of this session's reviews (tests/outsider/PLAN.md, "Leftovers (left45)"): each
through the real client against the fake Discord, real SQLite or PostgreSQL, or the real
command line; each test failed before its fix."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
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
