"""left55 (tests/outsider/PLAN.md, "Leftovers of outsider52 (left55)"): outsider52's "noticed
and left", each fix's test failing before it. (`check`'s dead match term: tests/glossary/
test_check.py.)"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.cards.text import NOTHING_ASKED
from bot.discord_app import state as state_module
from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import EXPLAIN_ABOVE, EXPLAIN_REPLIED
from bot.discord_app.state import BotState
from bot.glossary import GlossaryError, load_glossary
from bot.storage import Store
from tests.discord_app.helpers import buttons, define, is_ephemeral

from .conftest import Scene

NEW_ENTRIES = """
[[entries]]
id = "left55-quibble-cache"
title = "Quibble Cache"
category = "Fundamentals"
definition = "A made-up cache of quibbles, kept only for left55's reload test ({run})."

[[entries]]
id = "left55-quibble-router"
title = "Quibble Router"
category = "Fundamentals"
definition = "A made-up router of quibbles, sending each to the right cache ({run})."
"""


SERVED = """
[[entries]]
id = "left55-served"
title = "Served Thing"
category = "Fundamentals"
definition = "What the bot serves before the reload."
"""


def _served(tmp_path: Path) -> tuple[BotState, Path, Path]:
    """A bot's state serving a file of one entry (an index of the bundled 299 takes seconds to
    build), and a file of mine to add beside it."""
    served = tmp_path / "served.toml"
    served.write_text(SERVED, encoding="utf-8")
    return BotState(load_glossary([served]), None, [served]), served, tmp_path / "mine.toml"


def test_a_reload_embedding_many_new_texts_says_so_before_it_embeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """outsider52's leftover: a HUP of thousands of new entries logged nothing until it ended
    (7.5 min for 1,500 on a loaded machine); the maintainer thinks the HUP was lost. Now a line
    says, before the index is built, how many texts are new and about how long, and the end
    line how many were embedded in how long. Here the threshold is lowered to two entries'
    worth; an unchanged reload says neither."""
    monkeypatch.setenv("GLOSSARY_CACHE_DIR", str(tmp_path / "cache"))  # nothing of mine cached
    monkeypatch.setattr(state_module, "SAY_EMBEDDING", 0.01)
    state, served, mine = _served(tmp_path)
    mine.write_text(NEW_ENTRIES.format(run=tmp_path.name), encoding="utf-8")
    state.glossary_paths = [served, mine]
    said_before_index: list[str] = []
    build = BotState._indexed

    def indexed(glossary: object) -> object:
        said_before_index.extend(r.getMessage() for r in caplog.records)
        return build(glossary)  # type: ignore[arg-type]

    monkeypatch.setattr(BotState, "_indexed", staticmethod(indexed))
    with caplog.at_level(logging.INFO, logger="bot.discord_app.state"):
        assert state.reload() == "reloaded 3 entries"
    [begun] = [m for m in said_before_index if m.startswith("reloading: ")]
    assert begun.startswith("reloading: embedding 2 entry texts new since the last load"), begun
    assert re.search(r", about \d+ s of a free core;", begun), begun
    [done] = [r.getMessage() for r in caplog.records if "glossary reloaded" in r.getMessage()]
    assert re.fullmatch(r"glossary reloaded: 3 entries \(2 texts embedded in \d+ s\)", done)

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.discord_app.state"):
        assert state.reload() == "reloaded 3 entries"
    assert [r.getMessage() for r in caplog.records] == ["glossary reloaded: 3 entries"]


def test_a_refused_reload_warns_that_a_restart_would_not_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """outsider52's leftover: after a refused reload the bot serves on and `health` stays
    healthy, while the next restart (a reboot, an upgrade) refuses to start on the same files;
    a self-hoster learned it only then. Now a WARNING at the refusal says so, naming the file.
    (`health` is left healthy: the bot serves, and an unhealthy mark would have a container's
    watchdog restart it into that very refusal.)"""
    state, served, mine = _served(tmp_path)
    mine.write_text(NEW_ENTRIES.format(run="").replace("Fundamentals", "Nope"), encoding="utf-8")
    state.glossary_paths = [served, mine]
    with caplog.at_level(logging.WARNING, logger="bot.discord_app.state"):
        assert state.reload().startswith("reload refused: ")
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.getMessage() == (
        f"a restart would not start on these files either (it loads them as the reload did): "
        f"fix {mine} before the bot restarts; `glossary-bot check {served} {mine}` lists the "
        "problems"  # readme70: a plain `check` reads the bundled data, and found nothing
    )
    with pytest.raises(GlossaryError):  # as the restart would load them
        load_glossary(state.glossary_paths)
    assert len(state.glossary) == 1


async def test_a_question_naming_nothing_offers_no_suggestion(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """outsider52's leftover: "@Glossary what is this?" in a reply to another member's message
    found no card and answered "No entry for “what is this?”" with a Suggest it button for
    "what is this?" (and a missed search of it in /stats): a suggestion of no term. Words that
    only ask about something pointed at name no term: the mention now gets the Explain terms
    line alone (as "@Glossary ^" does), `/define` the private "Nothing to look up", neither a
    Suggest button nor a miss. A question naming a term still offers it."""
    fake, me = scene.fake, scene.fake.bot.mention
    jargon = await fake.user_message(scene.bob, scene.channel, "we tuned it with LoRA behind RAG")
    for said in ("what is this?", "what's that even mean lol", "wdym by this", "huh, what?"):
        await fake.user_message(scene.alice, scene.channel, f"{me} {said}", reply_to=jargon)
        answer = await fake.wait_for_channel_message(scene.channel)
        assert answer["content"] == EXPLAIN_REPLIED, (said, answer)
        assert buttons(answer) == {}, (said, answer)
    await fake.user_message(scene.alice, scene.channel, f"{me} what does it mean?")
    answer = await fake.wait_for_channel_message(scene.channel)
    assert answer["content"] == EXPLAIN_ABOVE, answer
    # Under a quote naming two terms (which one "that" is, nobody can tell): no offer either.
    await fake.user_message(scene.alice, scene.channel, f"> vllm with a kv cache\n{me} what's that")
    answer = await fake.wait_for_channel_message(scene.channel)
    assert (answer["content"], buttons(answer)) == (NOTHING_ASKED, {}), answer
    _, answer = await define(fake, scene.alice, "what is this?", scene.channel)
    assert is_ephemeral(answer), answer
    assert (answer["content"], buttons(answer)) == (NOTHING_ASKED, {}), answer

    await fake.user_message(scene.alice, scene.channel, f"{me} what is zorblax?", reply_to=jargon)
    answer = await fake.wait_for_channel_message(scene.channel)
    assert "Suggest it" in buttons(answer), answer
    await store.flush()  # the asks naming nothing, long answered, left no miss
    missed = [m.query for m in await store.top_misses(scene.guild.id)]
    assert all("zorblax" in query for query in missed), missed
