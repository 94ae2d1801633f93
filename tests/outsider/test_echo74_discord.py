"""echo74 (PLAN.md, "echo74"): what a moderator typed, quoted “…” inside a sentence, is shown
as typed: after the “ a quote, heading or list mark opens no line, so it takes no backslash."""

from __future__ import annotations

import pytest

from bot.storage import Store
from tests.discord_app.conftest import StartBot

from .conftest import Scene

TYPED = "> # zorbqx"


@pytest.mark.parametrize(
    ("command", "options", "said"),
    [
        ("alias remove", {"alias": TYPED}, f"This server has no alias “{TYPED}”"),
        ("alias add", {"alias": "zorbish", "term": TYPED}, f"I could not find the term “{TYPED}”"),
        ("term edit", {"term": TYPED}, f"This server has no term “{TYPED}”"),
    ],
)
async def test_a_name_quoted_mid_sentence_shows_a_leading_mark_without_a_backslash(
    command: str,
    options: dict[str, str],
    said: str,
    scene: Scene,
    start_bot: StartBot,
    store: Store,
) -> None:
    """left74 saw `/define > # rag` answered “\\> # rag”: `echo` escapes a leading mark as if
    the text began a line. The refusals of `/alias remove`, `/alias add` and `/term edit`
    quoted what was typed so too (`echo_quoted` now); "*" and "<" still take theirs."""
    async with start_bot(store):
        handle = await scene.fake.slash(scene.moderator, command, options, channel=scene.channel)
        answer = str((await handle.final_message())["content"])
    assert answer.startswith(said), answer


async def test_markdown_that_renders_mid_sentence_stays_escaped(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """Bold, code, spoilers and a mention render inside a sentence: their marks keep the escape."""
    async with start_bot(store):
        handle = await scene.fake.slash(
            scene.moderator,
            "alias remove",
            {"alias": "**zorb** `x` ||y|| <@1>"},
            channel=scene.channel,
        )
        answer = str((await handle.final_message())["content"])
    assert answer.startswith(r"This server has no alias “\*\*zorb\*\* \`x\` \|\|y\|\| \<@1>”"), (
        answer
    )
