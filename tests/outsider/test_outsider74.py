"""outsider74: the moderator's day, every command with hostile input, the member, driven as
users do (tests/outsider/PLAN.md, "outsider74"): what broke or held, through the real
discord.py client against the fake Discord."""

from __future__ import annotations

import json
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import define, embed_of

from .conftest import Scene
from .test_left47 import moderator_answer

# The bundled topics JSON cut to its first topic, its topics last, as a moderator's file.
_BUNDLED = json.loads(
    (Path(__file__).parents[2] / "data/llm-studio-topics.json").read_text("utf-8")
)
ONE_TOPIC = json.dumps(
    {**{k: v for k, v in _BUNDLED.items() if k != "topics"}, "topics": _BUNDLED["topics"][:1]},
    indent=1,
)

THE_ZORBWELL = """
[[entries]]
title = "The Zorbwell"
definition = "The lab's shared store of checkpoints and their evaluation notes."
category = "Fundamentals"
"""


async def test_an_alias_that_opens_with_the_opens_its_card_when_asked_without_it(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: `/alias add alias:the quuxer term:rag` was taken, and `/term add` of a
    term "quuxer" was then refused as "already this server's alias “the quuxer”", yet `/define
    quuxer` and "@Glossary what is the quuxer?" (search reads a question's "the" away) answered
    "No entry" with a **Suggest it** button, and `/suggest quuxer` was queued: only the alias
    typed whole, "the quuxer", opened the card. The alias now opens it by its core too."""
    fake = scene.fake
    said = await moderator_answer(scene, "alias add", {"alias": "the quuxer", "term": "rag"})
    assert said.startswith("Added"), said
    for asked in ("the quuxer", "quuxer", "what is the quuxer?", "Quuxer"):
        _, answer = await define(fake, scene.alice, asked, scene.channel)
        assert embed_of(answer)["title"] == "Retrieval-Augmented Generation (RAG)", (asked, answer)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is the quuxer?")
    posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "Retrieval-Augmented Generation (RAG)", posted
    # The alias's own key is its own: "quux" typed is no alias (nor is "the" alone).
    _, answer = await define(fake, scene.alice, "the", scene.channel)
    assert not answer["embeds"], answer
    # So a member's /suggest of "quuxer" is told which card it opens, not queued.
    handle = await fake.slash(scene.alice, "suggest", {"term": "quuxer"}, channel=scene.channel)
    told = await handle.final_message()
    assert "Retrieval-Augmented Generation" in str(told), told


async def test_a_term_titled_with_the_opens_its_card_in_a_question(
    scene: Scene, bot: GlossaryBot
) -> None:
    """Failed before: a server's term "The Zorbwell" (imported, or written in the form) opened
    only typed whole; "what is the zorbwell?" (search reads the question's "the" away),
    "@Glossary what is the zorbwell?" and "zorbwell" answered "Did you mean".
    A server term may take no name that reads so beside it, so the words after a title's
    article are its title too."""
    fake = scene.fake
    file = fake.add_attachment("terms.toml", THE_ZORBWELL)
    said = await moderator_answer(scene, "term import", {"file": file})
    assert said.startswith("Imported: 1 added"), said
    for asked in ("The Zorbwell", "what is the zorbwell?", "zorbwell"):
        _, answer = await define(fake, scene.alice, asked, scene.channel)
        assert answer["embeds"], (asked, answer)
        assert embed_of(answer)["title"] == "The Zorbwell", (asked, answer)
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} what is the zorbwell?")
    posted = await fake.wait_for_channel_message(scene.channel)
    assert embed_of(posted)["title"] == "The Zorbwell", posted


async def test_a_hand_edited_json_says_which_slip_breaks_it(scene: Scene, bot: GlossaryBot) -> None:
    """Failed before: a topics JSON edited by hand the way people do (a comment, a comma after
    the last item, single quotes) was refused with Python's words alone, "not valid JSON:
    Expecting value" (line 12), which do not say what to mend. The answer now names the slip,
    as a TOML file's smart quotes are named."""
    fake = scene.fake
    topics = ONE_TOPIC
    slips = {
        "// written by hand\n" + topics: "JSON has no comments (this one opens with //)",
        topics.removesuffix("\n}") + ",\n}": "a comma before this }",
        topics.removesuffix("]\n}") + ",]\n}": "a comma before this ]",
        topics.replace('"schemaVersion"', "'schemaVersion'"): "JSON strings take double quotes",
    }
    for text, named in slips.items():
        file = fake.add_attachment("terms.json", text)
        said = await moderator_answer(scene, "term import", {"file": file, "dry_run": True})
        assert said.startswith("Nothing was imported"), said
        assert named in said, (text, said)
    # The file without a slip is read: the hints come only with an error.
    file = fake.add_attachment("terms.json", topics)
    said = await moderator_answer(scene, "term import", {"file": file, "dry_run": True})
    assert "Would import: 1 added" in said, said
