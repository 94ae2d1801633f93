"""Small leftovers of this session (task left27, PLAN.md "Small leftovers (left27)"): the
command line in a process of its own, the real bot (discord.py) against the fake Discord, real
SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.glossary import Glossary
from bot.storage import Store
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import buttons, define, embed_of
from tests.discord_app.term_commands import run_import
from tests.fake_discord.models import READ_MESSAGE_HISTORY
from tests.resilience.botproc import CLI_ENV, glossary_bot_run
from tests.resilience.helpers import warned

from .conftest import Scene
from .test_round7 import title_of

# A topics JSON written by hand: the first topic without an id, the second with an unknown key,
# the third with neither id nor title. Each topic starts on a line of its own: 6, 7 and 11.
HAND_WRITTEN_TOPICS = """{
  "schemaVersion": 1,
  "language": "en",
  "categories": ["Fundamentals"],
  "topics": [
    {"title": "Raid Token", "category": "Fundamentals", "definition": "A coin."},
    {
      "id": "soak", "number": 2, "title": "Soak", "category": "Fundamentals",
      "colour": "red"
    },
    {"category": "Fundamentals", "definition": "Nothing to call it by."}
  ]
}
"""


def test_a_topics_json_names_each_topic_and_its_line(tmp_path: Path) -> None:
    """outsider25's suspicion of G31's twin: `check` and `terms import` of a topics JSON file
    named a topic without an id "topic #N" and gave no line for any problem, where the README
    promises every problem "with its entry and line". Now a topic without an id is named by its
    title, and each problem is given the line its topic starts at (when each topic starts on a
    line of its own: a file of one line, as the bundled one, gets none, not "line 1")."""
    (tmp_path / "g.json").write_text(HAND_WRITTEN_TOPICS, "utf-8")
    checked = glossary_bot_run(CLI_ENV, tmp_path, "check", "g.json")
    assert checked.returncode == 1, checked
    report = checked.stdout
    assert "g.json:6 [Raid Token]: error: id: missing required field" in report, report
    assert "g.json:7 [soak]: error: colour: unknown key" in report, report
    assert "g.json:11 [topic #3]: error: id: missing required field" in report, report

    imported = glossary_bot_run(
        CLI_ENV, tmp_path, "terms", "import", "--guild", "1", "--db", "g.db", "g.json"
    )
    assert imported.returncode == 1, imported
    answer = imported.stdout + imported.stderr
    assert "• line 6, “Raid Token”, Id: missing required field" in answer, answer
    assert "• line 7, “Soak”, File: colour: unknown key" in answer, answer
    assert "• line 11, “topic #3”, Id: missing required field" in answer, answer

    (tmp_path / "one.json").write_text(json.dumps(json.loads(HAND_WRITTEN_TOPICS)), "utf-8")
    one_line = glossary_bot_run(CLI_ENV, tmp_path, "check", "one.json").stdout
    assert "one.json [Raid Token]: error: id: missing required field" in one_line, one_line
    assert "one.json:1" not in one_line, one_line


async def test_term_import_of_a_topics_json_gives_each_problem_its_line(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """The same file through `/term import` (the moderator's way): the same lines."""
    async with start_bot(store):
        answer = await run_import(
            scene, scene.fake.add_attachment("ironhold.json", HAND_WRITTEN_TOPICS)
        )
    assert "• line 6, “Raid Token”, Id: missing required field" in answer, answer
    assert "• line 11, “topic #3”, Id: missing required field" in answer, answer


async def test_a_reply_refused_for_read_message_history_is_posted_as_a_message_of_its_own(
    scene: Scene, bot: GlossaryBot
) -> None:
    """review25's note: Read Message History taken since the bot was told its roles, so it
    believes it may reply; Discord refuses the reply (403, 160002) and the member got nothing,
    the operator a WARNING per mention. N32 posts a message of its own only where the bot
    knows the permission missing. Now a refused reply is posted so, once (no loop: one refused
    reply per mention), and the operator told once per channel, as N32 tells it (the line
    review25 made name Read Message History for the refusal: no longer logged, its test gone)."""
    fake = scene.fake
    channel = scene.other_channel
    for role in scene.other_guild.roles.values():
        role.permissions &= ~READ_MESSAGE_HISTORY
    async with warned("Read Message History") as records:
        for query in ("rag", "kv cache"):
            await fake.user_message(scene.alice, channel, f"{fake.bot.mention} {query}")
            posted = await fake.wait_for_channel_message(channel)
            assert "message_reference" not in posted, posted
            assert title_of(posted) in ("Retrieval-Augmented Generation (RAG)", "KV Cache")
    told = [r.getMessage() for r in records]
    assert len(told) == 1, told
    assert f"cannot reply to mentions in channel {channel.id}" in told[0], told
    assert [v.kind for v in fake.pop_violations()] == ["missing_permissions"] * 2


async def test_a_comparison_card_toggled_to_plain_words_keeps_the_other_side_first(
    scene: Scene, bot: GlossaryBot, glossary: Glossary
) -> None:
    """compare25's note: "X vs Y" answers X with Y as the first button, but the Plain words
    button rebuilt the card from X alone and dropped Y. It is the same answer in other words:
    now the toggled card keeps the buttons it had, there and back. (A card reached through a
    related term and back is X opened on its own: its related terms as they are.)"""
    fake = scene.fake
    assert glossary["safetensors"].plain
    assert "checkpoint" not in glossary["safetensors"].related
    _, card = await define(fake, scene.alice, "safetensors vs checkpoint", scene.channel)
    assert embed_of(card)["title"] == "Safetensors"
    assert next(iter(buttons(card))) == "Checkpoint"
    plain = await fake.click(scene.alice, card, buttons(card)["Plain words"])
    shown = await plain.final_message()
    assert embed_of(shown)["description"].startswith("**In plain words:** ")
    assert next(iter(buttons(shown))) == "Checkpoint", buttons(shown)
    back = await fake.click(scene.alice, shown, buttons(shown)["Full definition"])
    restored = await back.final_message()
    assert list(buttons(restored)) == list(buttons(card))
    related = await fake.click(scene.alice, restored, buttons(restored)["Checkpoint"])
    assert embed_of(await related.final_message())["title"] == "Checkpoint"
