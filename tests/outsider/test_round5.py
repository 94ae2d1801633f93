"""What a fifth round of outside testing found through `glossary-bot run` and the command line
(tests/outsider/PLAN.md, round 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.discord_app.helpers import define, embed_of
from tests.resilience.botproc import BotProcess
from tests.resilience.helpers import add_alias
from tests.resilience.test_outside_round3_terms import add_term

from .conftest import Scene


async def edit_term(scene: Scene, term: str, values: dict[str, str]) -> str:
    fake = scene.fake
    opened = await fake.slash(scene.moderator, "term edit", {"term": term}, channel=scene.channel)
    assert (await opened.response())["type"] == 9  # the form
    saved = await (await fake.submit_modal(scene.moderator, opened, values)).final_message()
    return str(saved["content"])


async def alias_list(scene: Scene, **options: str) -> str:
    handle = await scene.fake.slash(scene.moderator, "alias list", options, channel=scene.channel)
    message: dict[str, Any] = await handle.final_message()
    return str(message["content"]) + "".join(str(e.get("description")) for e in message["embeds"])


async def test_an_alias_follows_its_term_when_an_edit_makes_it_a_bundled_entrys_wording(
    scene: Scene, tmp_path: Path
) -> None:
    fake = scene.fake
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="1000"):
        quarble = {"title": "Quarble", "definition": "The team's word for a retrieval step."}
        assert (await add_term(scene, quarble)).startswith("Added"), quarble
        added = await add_alias(fake, scene.moderator, "blorp", "quarble", scene.channel)
        assert added.startswith("Added"), added
        # The moderator renames the term to a bundled entry's title: it becomes the server's
        # wording of that entry, one card.
        renamed = await edit_term(scene, "quarble", {"title": "Retrieval-Augmented Generation"})
        assert renamed.startswith("Saved"), renamed
        _, card = await define(fake, scene.alice, "blorp", scene.channel)
        assert card.get("embeds"), card.get("content")
        assert embed_of(card)["title"].startswith("Retrieval-Augmented Generation"), card
        assert "retrieval step" in str(embed_of(card)["description"]), card
        listed = await alias_list(scene)
        assert "blorp” → Retrieval-Augmented Generation" in listed, listed
        assert "→ quarble" not in listed, listed
        assert "blorp" in await alias_list(scene, term="rag")
        # Renamed back, the alias opens the server's own card again.
        back = await edit_term(scene, "quarble", {"title": "Quarble"})  # autocomplete's value
        assert back.startswith("Saved"), back
        _, card = await define(fake, scene.alice, "blorp", scene.channel)
        assert embed_of(card)["title"] == "Quarble", card
