"""What a seventh round of outside testing found through `glossary-bot run`, the command line
and the real client against the fake Discord (tests/outsider/PLAN.md, round 7)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import is_ephemeral, selects
from tests.discord_app.test_stats import stats
from tests.fake_discord.interactions import MESSAGE_COMPONENT, base_payload
from tests.resilience.helpers import stored_aliases

from .conftest import Scene

RAG = "Retrieval-Augmented Generation (RAG)"


def title_of(message: dict[str, Any]) -> str | None:
    embeds = message.get("embeds") or [{}]
    return embeds[0].get("title")


# How people wrap a term in a chat: Discord markup around it that names nothing.
MARKED_UP_RAG = [
    "```py\nrag```",  # a code fence with its language
    "```\nrag\n```",
    "@everyone rag",
    "@here rag",
    "<@123> rag",
    "<@!123> rag",
    "<@&55> rag",
    "<#77> rag",
    "<:thinking:123> rag",
    "rag <a:party:456>",
    "# rag",  # a heading
    "-# rag",  # subtext
    "[rag](https://example.com/rag)",  # a masked link
]


@pytest.mark.parametrize("query", MARKED_UP_RAG)
async def test_define_reads_a_term_inside_discord_markup(
    scene: Scene, bot: GlossaryBot, query: str
) -> None:
    """Plan lines M1, M5-M7: `/define` of a term beside a mention, a custom emoji, inside a
    fence with its language or under a heading answered "Did you mean", while `**rag**`,
    `||rag||` or "what is rag" got the card."""
    handle = await scene.fake.slash(scene.alice, "define", {"term": query}, channel=scene.channel)
    answer = await handle.final_message()
    assert title_of(answer) == RAG, answer.get("content")


@pytest.mark.parametrize("query", ["@everyone rag", "<:x:123> what is rag?", "```py\nrag```"])
async def test_a_mention_reads_a_term_inside_discord_markup(
    scene: Scene, bot: GlossaryBot, query: str
) -> None:
    """Plan line M8: the same through a mention of the bot; the reply still pings nobody."""
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {query}")
    reply = await fake.wait_for_channel_message(scene.channel)
    assert title_of(reply) == RAG, reply.get("content")
    assert fake.sent_messages[-1].pings == []


@pytest.mark.parametrize("query", ["C#", "what is c#", "<rag>", "@rag"])
async def test_markup_lookalikes_that_are_text_stay_text(
    scene: Scene, bot: GlossaryBot, query: str
) -> None:
    """What is not Discord markup is not taken away: a `#` inside a name, angle brackets that
    are no mention or emoji."""
    handle = await scene.fake.slash(scene.alice, "define", {"term": query}, channel=scene.channel)
    answer = await handle.final_message()
    said = (answer.get("content") or "") + str(title_of(answer))
    assert "Nothing to look up" not in said, said


async def forged_pick(scene: Scene, menu_message: dict[str, Any], values: list[str]) -> str:
    """A selection on `/stats`'s missed-search menu sent as a hand-made interaction, past
    Discord's own check that the values are the menu's: the answer's text (private)."""
    [menu] = selects(menu_message)
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values}
    stored = scene.fake.message(int(menu_message["id"]))
    payload = base_payload(
        scene.fake.world,
        kind=MESSAGE_COMPONENT,
        data=data,
        user=scene.moderator,
        channel=scene.channel,
        message=copy.deepcopy(stored),
    )
    handle = await scene.fake.raw_interaction(payload, target_message_id=int(stored["id"]))
    answer = await handle.final_message()
    assert is_ephemeral(answer)
    return str(answer["content"])


async def test_forged_picks_on_the_missed_search_menu_are_checked_like_alias_add(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Plan line Q10: values the menu never offered. Each is checked as `/alias add` checks
    (the moderator may add any alias anyway); an empty selection answered "Something went wrong
    (error id ...)" with a traceback in the log."""
    store.record_miss(scene.guild.id, "kv chache")
    menu_message = await stats(scene)
    assert "could not find the term" in await forged_pick(scene, menu_message, ["nosuch zorb"])
    assert "at most 100 characters" in await forged_pick(scene, menu_message, ["rag " + "x" * 200])
    assert "cannot contain mentions" in await forged_pick(scene, menu_message, ["rag @everyone"])
    assert "empty" in await forged_pick(scene, menu_message, ["rag "])
    said = await forged_pick(scene, menu_message, [])
    assert said == "Pick a missed search from the menu to add it as an alias.", said
    assert stored_aliases(scene.db_path) == []
