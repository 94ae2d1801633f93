"""Review of left47 and forged47 (tests/outsider/PLAN.md, "Review of left47 and forged47
(review48)"): what their changes left open, each test failing before its fix."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bot.discord_app.app import OUTDATED_FORM, GlossaryBot
from bot.storage import Store
from tests.discord_app.helpers import is_ephemeral
from tests.resilience.botproc import CLI_ENV, ROOT, glossary_bot_run

from .conftest import Scene
from .test_forged47 import RUN_ENV, form_submitted, open_suggest
from .test_round20 import _database

# --- paths that loop or never end ---------------------------------------------------------------

LOOPS_AND_PIPES = [
    # (case, arguments, the name the line gives, what it says)
    ("run, GLOSSARY_PATHS a loop", ("run",), "loop", "loop of symbolic links"),
    ("run, a pipe in kinds/", ("run",), "data/kinds/zz.toml", "a pipe or a device"),
    ("check, a glossary path that loops", ("check", "loop"), "loop", "loop of symbolic links"),
    ("check, a path through a loop", ("check", "loop/x"), "loop/x", "loop of symbolic links"),
    ("define --data, a loop", ("define", "--data", "loop", "rag"), "loop", "loop of symbolic"),
    ("check, a pipe named x.toml", ("check", "piped"), "piped/x.toml", "a pipe or a device"),
    ("check, a pipe in kinds/", ("check", "data"), "data/kinds/zz.toml", "a pipe or a device"),
    ("restore into a loop", ("restore", "--db", "loop", "g.db"), "loop", "loop of symbolic"),
    ("restore from a loop", ("restore", "--db", "h.db", "loop"), "loop", "loop of symbolic"),
    ("backup into a loop", ("backup", "--db", "g.db", "loop"), "loop", "loop of symbolic"),
    ("stats, a loop", ("stats", "--db", "loop"), "loop", "loop of symbolic links"),
    ("migrate-db --to, a loop", ("migrate-db", "--from", "g.db", "--to", "loop"), "loop", "loop"),
]


@pytest.mark.parametrize(
    ("args", "name", "said"),
    [case[1:] for case in LOOPS_AND_PIPES],
    ids=[case[0] for case in LOOPS_AND_PIPES],
)
def test_a_symlink_loop_or_a_pipe_is_one_line_naming_it(
    tmp_path: Path, args: tuple[str, ...], name: str, said: str
) -> None:
    """forged47 screened the glossary's paths and the database's for what this user may not
    reach; a loop of symbolic links got through: Path.resolve() raises RuntimeError on one, a
    traceback from `check`, `define --data`, `run` (GLOSSARY_PATHS), `restore` and `backup`. A
    pipe named like a data file (`x.toml` in a data folder or its `kinds/`) was read, and the
    read waits for a writer: `check` (and the bot's start, or its reload) never ended. Each is
    now a line naming it; the database given is left as it was."""
    (tmp_path / "loop").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop")
    (tmp_path / "piped").mkdir()
    os.mkfifo(tmp_path / "piped" / "x.toml")
    shutil.copytree(ROOT / "data", tmp_path / "data")
    os.mkfifo(tmp_path / "data" / "kinds" / "zz.toml")
    _database(tmp_path / "g.db")
    before = (tmp_path / "g.db").read_bytes()
    env = dict(CLI_ENV)
    if args == ("run",):  # the bot stops at its data, before Discord
        env |= RUN_ENV | {"GLOSSARY_PATHS": name.split("/")[0]}
    done = glossary_bot_run(env, tmp_path, *args)  # within its 120 s, or it hung
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "Traceback" not in out, out
    [line] = [line for line in out.splitlines() if name in line and "error" in line]
    assert said in line, line
    assert (tmp_path / "g.db").read_bytes() == before


# --- what a form gives back -----------------------------------------------------------------------


async def test_a_forms_text_given_back_shows_angle_brackets_as_typed(
    scene: Scene, bot: GlossaryBot
) -> None:
    """forged47's "What you typed:" made mentions and Markdown inert but left "<": a channel
    (<#id>), a timestamp (<t:0:R>) and a custom emoji (<:name:id>) rendered as a link, a date
    and a picture, not as typed; left47's problems escape every "<" (one home now)."""
    typed = {
        "title": "Kept <#123456789012345678> term",
        "definition": "Due <t:0:R> with <:blob:123456789012345678> and <@&123456789012345678>.",
    }
    handle = await form_submitted(scene, "gb:term-form:1", typed)
    answer = await handle.final_message()
    assert is_ephemeral(answer), answer
    content = answer["content"]
    assert content.startswith(OUTDATED_FORM), content
    assert "Kept \\<#123456789012345678> term" in content, content
    assert "Due \\<t:0:R> with \\<:blob:123456789012345678>" in content, content
    assert "\\<@\u200b&123456789012345678>" in content, content
    assert "<#" not in content.replace("\\<#", ""), content
    assert not scene.fake.pop_violations()


async def test_five_inputs_of_4000_characters_given_back_fit_and_ping_no_one(
    scene: Scene, bot: GlossaryBot
) -> None:
    """The most a form can hold (five inputs of 4,000), each of Markdown marks, mentions and
    backslashes (escaping doubles them): one message within 2,000, no ping. Holds."""
    values = {
        "title": "*" * 4000,
        "definition": "@everyone <@123456789012345678> " * 125,
        "boundary": "\\" * 4000,
        "other_names": "||spoiler|| ```x``` " * 200,
        "related": "<t:0:R>" * 571,
    }
    handle = await form_submitted(scene, "gb:term-form:1", values)
    content = (await handle.final_message())["content"]
    assert content.startswith(OUTDATED_FORM), content
    assert len(content) <= 2000, len(content)
    assert "@everyone" not in content, content
    assert not scene.fake.pop_violations()  # no ping, within Discord's lengths


async def test_a_suggestion_whose_term_is_blank_gives_the_words_back(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """`/suggest`'s term input takes any character (min 1), so a real client sends a term of
    spaces with the words typed under it. The answer was "A suggestion needs the term and what
    it means." and the words (up to 2,000 characters) were gone; forged47 gave the text back
    for the refusals it added. Now this one too; nothing queued."""
    words = "What our nightly batch job calls the <t:0:R> **merge** step."
    opened = await open_suggest(scene, scene.alice)
    sent = await scene.fake.submit_modal(scene.alice, opened, {"title": "   ", "definition": words})
    content = (await sent.final_message())["content"]
    assert content.startswith("A suggestion needs the term and what it means."), content
    assert "the \\<t:0:R> \\*\\*merge\\*\\* step." in content, content
    assert await store.open_suggestions(scene.guild.id) == []
    assert not scene.fake.pop_violations()


@pytest.mark.parametrize(
    ("title", "definition", "queued"),
    [
        ("S" * 100, "y" * 2000, True),  # each input at its most
        ("Tenner", "abcdefghij", True),  # the words at their least
        ("Niner", "abcdefghi ", False),  # ten typed, nine once the space is dropped
        ("Spaced", " " * 12, False),  # words of spaces only: refused, nothing to give back
    ],
)
async def test_suggestion_inputs_at_their_bounds(
    scene: Scene, bot: GlossaryBot, store: Store, title: str, definition: str, queued: bool
) -> None:
    """forged47's refusals at the inputs' exact bounds (term 1-100, words 10-2,000): what the
    form takes is queued whole; one short is refused. Holds."""
    opened = await open_suggest(scene, scene.alice)
    values = {"title": title, "definition": definition}
    sent = await scene.fake.submit_modal(scene.alice, opened, values)
    content = (await sent.final_message())["content"]
    waiting = await store.open_suggestions(scene.guild.id)
    if queued:
        assert content.startswith("Thanks!"), content
        [one] = waiting
        assert (one.title, one.definition) == (title, definition)
    else:
        assert "Nothing was queued" in content or "needs the term" in content, content
        assert waiting == []
    assert not scene.fake.pop_violations()
