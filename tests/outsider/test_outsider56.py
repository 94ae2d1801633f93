"""Outsider round 38 (outsider56): a member, a moderator and a glossary maintainer, as tests.

Plan and findings: tests/outsider/PLAN.md, "Outsider round 38 (outsider56)"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.glossary import bundled_data_dir, inspect_glossary
from bot.storage import Store
from tests.discord_app.helpers import embed_of

from .conftest import Scene
from .test_round29 import _next_answer, only_the_ask_answered

# A member's long chat message (about 1,900 characters, under Discord's 2,000) with the bot
# named near its end: the search reads a text's first 300 characters, none of them the question.
_CHATTER = (
    "so yesterday we were moving the whole team's notebooks over to the new cluster and honestly "
    "it was a mess, half the env files were missing and nobody remembered which python version "
    "the old box had, plus the shared drive kept timing out whenever two people pulled the same "
    "checkpoint at once. "
) * 6


@pytest.mark.parametrize(
    "said",
    [
        _CHATTER + "anyway {me} what is a kv cache",
        _CHATTER + "anyway {me} what is a kv cache? thanks",
        _CHATTER + "anyway, what is a kv cache? {me}",
        _CHATTER + "anyway, what is a kv cache {me} thanks!",
        "{me} " + _CHATTER + "anyway, what is a kv cache?",
        "what is a kv cache? " + _CHATTER + "{me}",  # read at its start, as before
    ],
)
async def test_a_long_message_asks_what_is_said_beside_the_bots_mention(
    said: str, scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Member: a 1,900-character chat message ending "@Glossary what is a kv cache" was read
    whole, and the search reads a text's first 300 characters: "No entry" quoting the chatter
    (or "Did you mean" Python, Checkpoint: what the chatter names), a stored miss and **Suggest
    it**. Where the text is longer than the search reads, the words after the mention are the
    question; where nothing but a pleasantry follows it, or it opens the message, and the start
    opens no card, the text's end is read too."""
    said = said.format(me=scene.fake.bot.mention)
    assert 1_700 < len(said) <= 2_000
    asked = await scene.fake.user_message(scene.alice, scene.channel, said)
    replied_to, answer = await _next_answer(scene)
    assert replied_to == asked["id"], answer
    assert answer["embeds"], answer["content"]
    assert embed_of(answer)["title"] == "KV Cache", answer
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []


def test_check_warns_of_an_asked_as_phrasing_that_is_another_entrys_name(tmp_path: Path) -> None:
    """Glossary maintainer: a phrasing in KV Cache's asked-as table that is RAG's alias
    ("retrieval augmented generation", a slip of the table a phrasing was written under) passed
    `check` without a word, though the files say phrasings never name their entry, and search
    finds RAG by that name, never KV Cache: the phrasing only pulls descriptions near it to the
    wrong card. `check` now says so, as it says of a match term that is another entry's name:
    a warning naming the file, the phrasing's line, and the entry whose name it is. A phrasing
    that only writes another entry's name among its words ("the network type behind gpt, bert
    and llama") is a description, and is not named."""
    data = tmp_path / "data"
    shutil.copytree(bundled_data_dir(), data)
    (data / "asked-as" / "zz-mine.toml").write_text(
        '["kv-cache"]\nasked_as = [\n  "keys and values kept between decode steps",\n'
        '  "Retrieval Augmented Generation",\n  "how rag and the kv cache differ",\n]\n',
        "utf-8",
    )
    _, problems = inspect_glossary([data])
    said = [p for p in problems if "asked-as" in p.file or "asked_as" in p.message]
    assert [p.severity for p in said] == ["warning"], said
    assert said[0].file.endswith("zz-mine.toml"), said
    assert said[0].line == 4, said
    assert said[0].entry == "kv-cache", said
    assert "'Retrieval Augmented Generation'" in said[0].message, said
    assert "'rag'" in said[0].message, said
    assert not [p for p in problems if p.severity == "error"], problems


async def test_a_long_reply_under_a_card_naming_the_bot_only_by_its_ping_is_read_at_its_start(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """The end of a long text is read for a message that names the bot (above), not for a
    reply under its card that pings it without naming it: talk under a card asks nothing of
    the bot, and is answered only where its start opens a card, as before (a flood of long
    replies costs one search each). Here its end asks about RAG: no answer; the next post of
    the bot answers a later mention."""
    me = scene.fake.bot.mention
    await scene.fake.user_message(scene.alice, scene.channel, f"{me} what is a kv cache?")
    _, card = await _next_answer(scene)
    assert embed_of(card)["title"] == "KV Cache", card
    said = _CHATTER + "anyway, what is rag?"
    await scene.fake.user_message(scene.bob, scene.channel, said, reply_to=card)
    await only_the_ask_answered(scene, store, scene.alice, f"{me} rag")
