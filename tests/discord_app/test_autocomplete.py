"""Autocomplete on /define's term: fast, within Discord's limits, values that /define takes."""

from __future__ import annotations

from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary

from .conftest import Scene
from .helpers import define, embed_of


async def _choices(scene: Scene, text: str) -> list[dict[str, str]]:
    handle = await scene.fake.autocomplete(
        scene.alice, "define", {"term": text}, focused="term", channel=scene.channel
    )
    choices = await handle.choices()
    assert handle.response_latency is not None
    assert handle.response_latency < 3
    assert len(choices) <= 25
    for choice in choices:
        assert 1 <= len(choice["name"]) <= 100
        assert 1 <= len(choice["value"]) <= 100
    return choices


async def test_autocomplete_offers_entry_ids_prefix_first(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    choices = await _choices(scene, "kv")
    assert choices[0]["value"] == "kv-cache"
    assert all(c["value"] in glossary for c in choices)

    typed = await _choices(scene, "spec")
    assert typed[0]["value"] == "speculative-decoding"
    names = [c["name"].casefold() for c in typed]
    prefix_hits = [n.startswith("spec") for n in names]
    assert prefix_hits == sorted(prefix_hits, reverse=True)  # every prefix hit before the rest

    # The value is what /define receives when the user picks the choice.
    _, card = await define(scene.fake, scene.alice, choices[0]["value"], scene.channel)
    assert embed_of(card)["title"] == "KV Cache"


async def test_autocomplete_of_many_hits_stops_at_25(scene: Scene, bot: GlossaryBot) -> None:
    assert len(await _choices(scene, "a")) == 25


async def test_an_empty_box_shows_this_servers_most_looked_up_terms(
    scene: Scene, bot: GlossaryBot
) -> None:
    fake = scene.fake
    for term, times in (("lora", 3), ("rag", 2)):
        for _ in range(times):
            await define(fake, scene.alice, term, scene.channel)
    choices = await _choices(scene, "")
    assert [c["value"] for c in choices[:2]] == ["lora-qlora", "rag"]

    # Another server has its own favourites (none yet): its box starts elsewhere.
    handle = await fake.autocomplete(
        scene.alice, "define", {"term": ""}, focused="term", channel=scene.other_channel
    )
    assert [c["value"] for c in (await handle.choices())[:2]] != ["lora-qlora", "rag"]
