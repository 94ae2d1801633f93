"""left67 (tests/outsider/PLAN.md, "Leftovers (left67)"): outsider56's small leftovers, each
fix's test failing before it: the glossary's warnings said in the bot's log at start and at each
reload, `check`'s "no kind" warning at the entry's own file, and a laugh said to the bot ("lol")
taken as a pleasantry."""

from __future__ import annotations

import re
import shlex
import signal
from pathlib import Path

from bot.discord_app.app import GlossaryBot
from bot.discord_app.cogs.define import DEFINE_HELP, MENTION_HELP
from bot.discord_app.state import warnings_line
from bot.glossary import Problem, bundled_data_dir, inspect_glossary
from bot.storage import Store
from tests.discord_app.helpers import define, embed_of, is_ephemeral
from tests.resilience.botproc import BotProcess, glossary_bot

from .conftest import Scene
from .test_left47 import moderator_answer
from .test_round29 import _next_answer

ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A made-up thing, only for left67's tests."
"""
WARNED = r"WARNING .*glossary: (\d+) warnings?\b"


def _mine(folder: Path, *titles: str) -> Path:
    """My own glossary folder beside the bundled one: an entry for each title, none with a kind
    (the bundled kinds are read, so each is a warning of `check`)."""
    folder.mkdir(exist_ok=True)
    entries = "".join(ENTRY.format(id=t.lower().replace(" ", "-"), title=t) for t in titles)
    (folder / "mine.toml").write_text(entries, encoding="utf-8")
    return folder


async def test_the_glossarys_warnings_are_one_log_line_at_start_and_at_each_reload(
    scene: Scene, tmp_path: Path
) -> None:
    """outsider56: `check` listed warnings that `run` never logged, so a self-hoster who never
    ran `check` never saw them. Now one WARNING counts them and names the command to list them
    (with the paths served, as `check` must read them together); none where there are none."""
    data, mine = bundled_data_dir(), _mine(tmp_path / "mine", "Zorb Filter")
    paths = f"{data}:{mine}"
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path, GLOSSARY_PATHS=paths) as bot:
        started = await bot.wait_for_output(WARNED)
        assert re.search(WARNED, started)[1] == "1", started  # type: ignore[index]
        check = f"glossary-bot check {shlex.quote(str(data))} {shlex.quote(str(mine))}"
        assert check in started, started
        assert str(mine / "mine.toml") in started, started  # where they are
        assert "not stop the bot serving" in started, started  # no error: nothing refused

        _mine(mine, "Zorb Filter", "Zorb Sieve")
        bot.send_signal(signal.SIGHUP)
        reloaded = await bot.wait_for_output(WARNED, count=2)
        assert re.search(WARNED, reloaded)[1] == "2", reloaded  # type: ignore[index]

        (mine / "kinds").mkdir()
        (mine / "kinds" / "mine.toml").write_text(
            'zorb-filter = "method"\nzorb-sieve = "tool"\n', encoding="utf-8"
        )
        bot.send_signal(signal.SIGHUP)
        await bot.wait_for_output(r"glossary reloaded: \d+ entries", count=3 - 1)
        assert await bot.stop() == 0
    warned = [line for line in bot.lines if re.search(WARNED, line)]
    assert len(warned) == 2, warned  # none for the reload with nothing to warn of
    # What the line says to run says what it counted.
    code, output = await glossary_bot(bot.env, tmp_path, *shlex.split(check)[1:])
    assert code == 0, output
    assert "0 error(s), 0 warning(s)" in output, output


async def test_the_bundled_glossary_starts_with_no_warning_line(
    scene: Scene, tmp_path: Path
) -> None:
    """The bundled data has no warnings: `check` says so, and the bot's start logs none."""
    _, problems = inspect_glossary()
    assert problems == []
    async with BotProcess(scene.fake, scene.db_path, cwd=tmp_path) as bot:
        await bot.wait_for_output(r"serving \d+ entries")
        assert await bot.stop() == 0
    assert [line for line in bot.lines if "glossary-bot check" in line] == [], bot.output


def test_checks_no_kind_warning_names_the_entrys_own_file_and_line(tmp_path: Path) -> None:
    """outsider56: the warning for an entry of my own folder named the bundled kinds file, which
    I cannot edit, and no line; it names my file and the entry's line, as the other warnings
    do."""
    mine = _mine(tmp_path / "mine", "Zorb Filter", "Zorb Sieve")
    _, problems = inspect_glossary([bundled_data_dir(), mine])
    assert [(p.file, p.entry, p.line) for p in problems] == [
        (str(mine / "mine.toml"), "zorb-filter", 3),  # the id's line, as a reader counts
        (str(mine / "mine.toml"), "zorb-sieve", 9),
    ], [str(p) for p in problems]
    assert "kinds/*.toml of a folder served with it" in problems[0].message


LAUGHS = ("lol", "LOL", "lmao", "lmfao", "haha", "hahaha", "xD", "lol 😂", "haha thanks!", "ok lol")


async def test_a_laugh_said_to_the_bot_is_a_pleasantry_not_a_miss(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """outsider56: "@Glossary lol" got a public "No entry" with **Suggest it**, and /stats
    listed "lol" as a missed search. A laugh is said to the bot, as "thanks!" is: the line of
    help, no miss; `/define lol` likewise (how to ask, privately). A question with a laugh in it
    is still a question."""
    fake = scene.fake
    for said in LAUGHS:
        asked = await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {said}")
        replied_to, answer = await _next_answer(scene)
        assert replied_to == asked["id"], (said, answer)
        assert answer["content"] == MENTION_HELP, (said, answer)
        assert not answer["embeds"], (said, answer)
    _, answer = await define(fake, scene.alice, "lmao", scene.channel)
    assert answer["content"] == DEFINE_HELP, answer
    assert is_ephemeral(answer), answer
    asked = await fake.user_message(
        scene.alice, scene.channel, f"{fake.bot.mention} lol what is a kv cache"
    )
    replied_to, answer = await _next_answer(scene)
    assert replied_to == asked["id"], answer
    assert embed_of(answer)["title"] == "KV Cache", answer
    await store.flush()
    assert await store.top_misses(scene.guild.id) == []


async def test_a_servers_own_alias_lol_still_opens_its_card(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """A server's own name that reads like a pleasantry is its name (README: as for "thanks")."""
    added = await moderator_answer(scene, "alias add", {"alias": "lol", "term": "lora"})
    assert added.startswith("Added"), added
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} lol")
    _, answer = await _next_answer(scene)
    assert answer["embeds"], answer
    assert "LoRA" in embed_of(answer)["title"], answer


def test_the_warning_line_names_a_few_files_and_counts_the_rest() -> None:
    """A folder of many files with a warning each stays one line of the log."""
    warnings = [Problem("warning", f"mine/{n}.toml", "w", f"e{n}") for n in range(5)]
    line = warnings_line(warnings, [Path("data"), Path("my glossary")])
    assert "in mine/0.toml, mine/1.toml, mine/2.toml and 2 more files, which do not" in line
    assert line.startswith("glossary: 5 warnings, "), line
    assert line.endswith("`glossary-bot check data 'my glossary'` lists them"), line
