"""fake70 (tests/outsider/PLAN.md): the product run as its users run it. Two display leftovers
of readme70 (a masked link's footer, `terms export`'s singular), and the fake Discord by hand
driving every kind of interaction through a real `glossary-bot run`."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from tests.discord_app.helpers import embed_of

from .conftest import Scene
from .test_left36 import GUARD, ROOT, _read_until, run_bot_by_hand, stopped
from .test_round30 import SMART_QUOTES, _cli


@pytest.mark.parametrize("said", ["[rag](https://example.com)", "[rag](<https://example.com>)"])
async def test_a_masked_link_s_footer_names_its_label(
    scene: Scene, bot: GlossaryBot, said: str
) -> None:
    """readme70's leftover: `[rag](https://example.com)` in a mention opened RAG with the
    footer `matched "[rag](" as an acronym`, the link's remains. A masked link reads as its
    label: the footer names "rag", what the member wrote as the term."""
    fake = scene.fake
    await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} {said}")
    card = embed_of(await fake.wait_for_channel_message(scene.channel))
    assert card["title"] == "Retrieval-Augmented Generation (RAG)", card
    assert ' · matched "rag" as an acronym' in card["footer"]["text"], card["footer"]


@pytest.mark.parametrize(
    ("aliases", "told"),
    [
        (
            1,
            "1 alias: `glossary-bot aliases export --guild 4` writes it (`aliases import` reads "
            "it back, with its guild_id set to the other server's)",
        ),
        (
            2,
            "2 aliases: `glossary-bot aliases export --guild 4` writes them (`aliases import` "
            "reads them back, with each guild_id set to the other server's)",
        ),
    ],
)
async def test_terms_export_names_one_alias_in_the_singular(
    tmp_path: Path, aliases: int, told: str
) -> None:
    """readme70's leftover: with one alias left out, `terms export` said "the file does not
    hold server 4's 1 alias: ... writes them (... reads them back, with each guild_id ...)".
    One alias is "it", as "1 alias" already was."""
    (tmp_path / "ours.toml").write_text(
        SMART_QUOTES.replace("\u201c", '"').replace("\u201d", '"'), encoding="utf-8"
    )
    rows = [
        {"guild_id": 4, "alias": f"the zorbinator {n}", "entry_id": "zorb-engine"}
        for n in range(aliases)
    ]
    (tmp_path / "aliases.json").write_text(json.dumps(rows))
    db = str(tmp_path / "bot.db")
    for args in (
        ("terms", "import", "ours.toml", "--guild", "4"),
        ("aliases", "import", "aliases.json"),
    ):
        status, said = await _cli(tmp_path, *args, "--db", db)
        assert status == 0, said
    status, said = await _cli(
        tmp_path, "terms", "export", "--guild", "4", "--db", db, "-o", "out.toml"
    )
    assert status == 0, said
    assert said == f"terms export: the file does not hold server 4's {told}\n", said


ZORB = 'title = "Zorb Engine"\ncategory = "Fundamentals"\ndefinition = "A thing that zorbs."\n'


async def test_the_fake_by_hand_drives_every_kind_of_interaction(tmp_path: Path) -> None:
    """Item 1: `python -m tests.fake_discord` sent only `/define TERM` and mentions as alice;
    moderators' commands, buttons, Explain terms, files and forms were the tests' alone. Now a
    person types them, as alice or `mo:`, and the real bot (`glossary-bot run`) answers each as
    text. The fake's own checks of what Discord sends and takes flag nothing ("Discord would
    refuse this" is never printed). Run without the test tools, as README runs it."""
    hidden = tmp_path / "no-test-tools" / "pytest"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text('raise ImportError("pytest is not installed")\n', "utf-8")
    (tmp_path / "zorb.toml").write_text(f"[[entries]]\n{ZORB}", "utf-8")
    fake = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fake_discord",
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(hidden.parent)},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert fake.stdin is not None
    assert fake.stdout is not None
    stdin, stdout = fake.stdin, fake.stdout
    printed: list[str] = []

    async def typed(line: str, until: str) -> str:
        stdin.write(f"{line}\n".encode())
        await stdin.drain()
        said = await _read_until(stdout, until)
        printed.append(said)
        return said

    bot = None
    try:
        settings = dict(re.findall(r"(DISCORD_\w+)=(\S+)", await _read_until(stdout, "waiting")))
        bot = await run_bot_by_hand(tmp_path, settings)
        await _read_until(stdout, "connected.")
        # A moderator's command, with options by name; alice is refused it as Discord refuses.
        said = await typed("mo: /alias add term:rag alias:zorbnet", "(only mo sees this)")
        assert "“zorbnet” now opens **Retrieval-Augmented Generation (RAG)**" in said, said
        said = await typed("/alias list", "Discord would not let alice use it")
        # Buttons of the last answer, by label and by number.
        said = await typed("/define kv cache", "buttons: ")
        first = dict(re.findall(r"\[(\d+)\] (.+?)(?= \[\d+\]|$)", said.splitlines()[-1]))
        said = await typed(f"!click {first['1'].upper()}", "buttons: ")
        assert f"[{first['1']}]" in said, said
        related = dict(re.findall(r"\[(\d+)\] (.+?)(?= \[\d+\]|$)", said.splitlines()[-1]))
        said = await typed("!click 2", "buttons: ")
        assert f"[{related['2']}]" in said, said
        # Explain terms on a message said to the channel, not to the bot.
        await typed("!say we put zorbnet behind the chat", "not to the bot")
        said = await typed("!explain", "(only alice sees this)")
        assert "**Retrieval-Augmented Generation (RAG)**" in said, said
        # alice's form, and the moderators' review of it, its mention shown as Discord shows it.
        await typed("/suggest", "1/2 Term")
        await typed("Zorbwave", "2/2 ")
        said = await typed("A wave of zorbs.", "(only alice sees this)")
        assert "Thanks! “Zorbwave” is with this server's moderators." in said, said
        said = await typed("mo: /term review", "(only mo sees this)")
        assert "[Zorbwave]\nA wave of zorbs.\nFrom: @alice\n" in said, said
        # An import, with a file from disk.
        said = await typed(f"mo: /term import file:{tmp_path / 'zorb.toml'}", "(only mo sees")
        assert "Imported: 1 added, 0 changed, 0 removed." in said, said
        # A form, field by field: an empty line keeps what a field holds.
        said = await typed("mo: /term edit term:Zorb Engine", "1/5 Title")
        assert "holds: Zorb Engine" in said, said
        await typed("", "2/5 Definition")
        for line in ("A thing that zorbs twice.", "", ""):
            await typed(line, "/5 ")
        said = await typed("", "(only mo sees this)")
        assert "Saved **Zorb Engine**" in said, said
        said = await typed("/define zorb engine", "this server's glossary")
        assert "[Zorb Engine]\nA thing that zorbs twice.\n" in said, said
        # A confirmation, and the follow-up that tells what it did.
        await typed("mo: /term remove term:Zorb Engine", "buttons: [1] Remove")
        await typed("mo: !click remove", "Removed “Zorb Engine”.")
        stdin.close()  # end of input: the fake stops
        async with asyncio.timeout(GUARD):
            assert await fake.wait() == 0
    finally:
        await stopped(fake, bot)
    assert not any("Discord would refuse" in said for said in printed), printed
