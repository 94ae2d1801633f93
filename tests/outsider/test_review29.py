"""Review of last session's features (task review29, PLAN.md "Review of last session's features
(review29)"): the worker reading members' messages, Discord's clock, server terms titled as
bundled entries. The real bot (discord.py) against the fake Discord on real SQLite files."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define, embed_of

from .conftest import Scene


async def test_one_interaction_stamped_in_the_future_makes_no_later_one_late(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W8: the clocks' offset is the fastest arrival of the last 10 minutes. One interaction
    whose id says Discord sent it an hour from now (a clock of Discord's ahead, once) became
    that fastest: every later interaction then looked an hour late, for 10 minutes."""
    fake = scene.fake
    await define(fake, scene.alice, "rag", scene.channel)  # the clocks' offset, on time
    ahead = await fake.autocomplete(
        scene.bob,
        "define",
        {"term": "kv"},
        focused="term",
        channel=scene.channel,
        created_ago=-3600.0,
    )
    assert await ahead.choices()  # answered
    handle, card = await define(fake, scene.alice, "lora", scene.channel)
    assert handle.callback is not None, handle.records  # answered in the interaction
    assert embed_of(card)["title"].startswith("LoRA"), card
    typed = await fake.autocomplete(
        scene.alice, "define", {"term": "kv"}, focused="term", channel=scene.channel
    )
    assert await typed.choices()


@pytest.mark.parametrize("ahead", [3600.0, -3600.0])
async def test_discords_clock_an_hour_off_this_machines_makes_nothing_late(
    scene: Scene, bot: GlossaryBot, monkeypatch: pytest.MonkeyPatch, ahead: float
) -> None:
    """W7: every id stamped an hour ahead of (or behind) this machine's clock: the offset is
    the clocks', nothing is late."""
    wall = time.time
    monkeypatch.setattr(
        "tests.fake_discord.models.time", SimpleNamespace(time=lambda: wall() + ahead)
    )
    fake = scene.fake
    for term in ("rag", "lora", "kv cache"):
        handle, card = await define(fake, scene.alice, term, scene.channel)
        assert handle.callback is not None, handle.records  # answered in the interaction
        assert embed_of(card)["title"], card
    typed = await fake.autocomplete(
        scene.alice, "define", {"term": "kv"}, focused="term", channel=scene.channel
    )
    assert await typed.choices()


async def test_the_first_interaction_held_up_an_hour_makes_the_next_on_time(
    scene: Scene, bot: GlossaryBot
) -> None:
    """W9: the first interaction after start is taken as on time, as clock29 says (here held up
    an hour: Discord refuses its answer, as it would have before); the next ordinary one is
    answered in the interaction."""
    fake = scene.fake
    first = await fake.slash(
        scene.alice, "define", {"term": "rag"}, channel=scene.channel, held_up=3600
    )
    await first.response()  # sent, and refused: past Discord's 3 s
    assert [v.kind for v in fake.pop_violations()] == ["unknown_interaction"]
    handle, card = await define(fake, scene.bob, "lora", scene.channel)
    assert handle.callback is not None, handle.records
    assert embed_of(card)["title"].startswith("LoRA"), card
