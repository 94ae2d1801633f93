"""Leftovers of the last reviews (tests/outsider/PLAN.md, "Leftovers (left47)"): each through
the real client against the fake Discord, real SQLite or PostgreSQL, or the real command line;
each test failed before its fix."""

from __future__ import annotations

import re

from bot.storage import Store
from tests.discord_app.helpers import buttons, is_ephemeral
from tests.discord_app.test_terms import add_term
from tests.resilience.conftest import StartBot
from tests.storage.conftest import FakeClock

from .conftest import Scene


async def _slash_alias(scene: Scene, command: str, options: dict[str, str]) -> str:
    handle = await scene.fake.slash(
        scene.moderator, f"alias {command}", options, channel=scene.channel
    )
    message = await handle.final_message()
    assert is_ephemeral(message), message
    return str(message["content"])


async def test_an_alias_removed_alone_in_its_terms_second_says_alone(
    scene: Scene, start_bot: StartBot
) -> None:
    """Item 1 (left45, review46): an alias removed alone was matched to its term's removal by
    actor and second, so one the moderator removed alone just before removing its term (the
    same second: the clock stands still here) read "removed with its term". Now the two
    removals share the write's id."""
    store = await Store.open(scene.db_path, clock=FakeClock())
    async with start_bot(store):
        await add_term(scene)
        for alias in ("zorbalias", "zorbother"):
            added = await _slash_alias(scene, "add", {"alias": alias, "term": "zorblax"})
            assert added.startswith("Added"), added
        assert (await _slash_alias(scene, "remove", {"alias": "zorbother"})) == (
            "Removed “zorbother”."
        )
        asked = await scene.fake.slash(
            scene.moderator, "term remove", {"term": "zorblax"}, channel=scene.channel
        )
        prompt = await asked.final_message()
        clicked = await scene.fake.click(scene.moderator, prompt, buttons(prompt)["Remove"])
        await clicked.followups(1)
        alone = await _slash_alias(scene, "remove", {"alias": "zorbother"})
        assert re.fullmatch(
            r"This server has no alias “zorbother”: it was removed <t:\d+:R>\.", alone
        ), alone
        with_term = await _slash_alias(scene, "remove", {"alias": "zorbalias"})
        assert re.fullmatch(
            r"This server has no alias “zorbalias”: it was removed with its term “Zorblax” "
            r"<t:\d+:R> \(`/term log` says by whom\)\.",
            with_term,
        ), with_term
