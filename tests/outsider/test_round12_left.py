"""What round 12 of outside testing noticed and left (tests/outsider/PLAN.md, round 12, "Noticed,
left"), each through the real command line or the bot against the fake Discord."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.heartbeat import MAX_AGE, check_heartbeat
from bot.storage.cli import on_store
from tests.discord_app.helpers import define, embed_of
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot

from .conftest import Scene


async def test_a_token_pasted_with_its_bot_prefix_is_told_to_drop_it(tmp_path: Path) -> None:
    """Plan line X23: `DISCORD_TOKEN=Bot abc…` (the prefix copied from an HTTP header) was
    refused naming the setting, but not why; the line now says so, without the token."""
    env = CLI_ENV | {"DISCORD_TOKEN": "Bot MTIzNDU2.abcdef.ghijkl"}
    status, said = await glossary_bot(env, tmp_path, "run")
    assert status == 2, said
    [line] = said.splitlines()
    assert line.startswith("glossary-bot: bad setting: DISCORD_TOKEN"), line
    assert 'pasted with the "Bot " prefix' in line, line
    assert "MTIzNDU2" not in line, line


async def test_glossary_paths_joined_by_a_comma_are_told_the_separator(tmp_path: Path) -> None:
    """Plan line X25: `GLOSSARY_PATHS=a.toml,b.toml` named the joined path as missing ("no such
    file or folder"), never that paths are separated by ":"; the one line now says it."""
    for name in ("a.toml", "b.toml"):
        (tmp_path / name).write_text("", encoding="utf-8")
    env = CLI_ENV | {"GLOSSARY_PATHS": "a.toml,b.toml", "DISCORD_TOKEN": "abc.def.ghi"}
    status, said = await glossary_bot(env, tmp_path, "run")
    assert status == 2, said
    [line] = said.splitlines()
    assert line.startswith("glossary-bot: bad setting: GLOSSARY_PATHS=a.toml,b.toml"), line
    assert "separated by ':'" in line, line
    assert "',' does not separate paths" in line, line


async def test_a_file_name_with_a_comma_is_still_a_glossary_path(tmp_path: Path) -> None:
    """A comma in a path that exists is part of its name: read, not refused."""
    data = tmp_path / "mine,2026.toml"
    data.write_text(
        '[[entries]]\nid = "zorblax"\ntitle = "Zorblax"\ncategory = "Fundamentals"\n'
        'definition = "A thing that zorbs."\n',
        encoding="utf-8",
    )
    env = CLI_ENV | {"GLOSSARY_PATHS": str(data)}
    status, said = await glossary_bot(env, tmp_path, "stats", "--db", str(tmp_path / "g.db"))
    assert status != 2, said
    assert "bad setting" not in said, said


async def test_terms_import_lists_its_titles_one_a_line(tmp_path: Path) -> None:
    """Plan round 12, noticed: `terms import` of 2,000 terms printed every added title on one
    line of some 40,000 characters. Now the count, then one title a line."""
    file = tmp_path / "terms.toml"
    file.write_text(
        "".join(
            f'[[entries]]\nid = "zorb-{n}"\ntitle = "Zorb {n}"\ncategory = "Fundamentals"\n'
            f'definition = "The zorb numbered {n}."\n\n'
            for n in range(1, 41)
        ),
        encoding="utf-8",
    )
    status, said = await glossary_bot(
        CLI_ENV, tmp_path, "terms", "import", str(file), "--guild", "1", "--db",
        str(tmp_path / "g.db"),
    )  # fmt: skip
    assert status == 0, said
    lines = said.splitlines()
    assert lines[0] == "Imported: 40 added, 0 changed, 0 removed.", said
    assert lines[1] == "Added (40):", said
    assert lines[2:] == [f"  Zorb {n}" for n in range(1, 41)], said


def test_ctrl_c_while_aliases_import_checks_writes_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Plan round 12, noticed beside X33: a Ctrl-C while `aliases import` checked its lines
    (CPU work that never waits, so the cancellation waited too) let the write start and finish;
    it was then reported as written. Before the write begins, Ctrl-C now writes nothing and
    says so; during it, the write is whole (test_round12)."""
    import bot.aliases

    checked = bot.aliases.validate_alias
    pressed: list[bool] = []

    def ctrl_c_while_checking(*args: Any, **kwargs: Any) -> str:
        if not pressed:  # the operator's Ctrl-C, once, on the first line checked
            pressed.append(True)
            signal.raise_signal(signal.SIGINT)
        return checked(*args, **kwargs)

    monkeypatch.setattr(bot.aliases, "validate_alias", ctrl_c_while_checking)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GLOSSARY_PATHS", "")
    file = tmp_path / "aliases.json"
    rows = [{"guild_id": 5, "alias": f"zorbword {n}", "entry_id": "rag"} for n in range(3)]
    file.write_text(json.dumps(rows), encoding="utf-8")
    db = tmp_path / "g.db"

    status = main(["aliases", "import", str(file), "--db", str(db), "--quiet"])
    said = capsys.readouterr()
    assert status == 130, said
    assert said.err.splitlines() == ["glossary-bot: interrupted; nothing was written"], said
    assert on_store(db, lambda store: store.export_aliases(None)) == []


async def test_a_second_bot_through_a_hard_link_to_the_database_is_refused(
    scene: Scene, tmp_path: Path
) -> None:
    """Plan line X27, left: the lock beside the database's real path catches a symlink, but a
    hard link is another real path of the same file. The second bot started on it and
    IDENTIFYed in a loop against the first; SQLite itself would keep two write-ahead logs for
    the one file. It is now refused like a second bot on the same path, while the first
    answers on."""
    fake = scene.fake
    link = tmp_path / "hard-link.db"
    async with BotProcess(fake, scene.db_path, cwd=tmp_path):
        link.hardlink_to(scene.db_path)
        second = BotProcess(fake, link, cwd=tmp_path, CLAIM_WAIT="0")  # refused at once
        await second.start(wait_ready=False)
        assert await second.exited(within=60) == 2, second.output
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)"
    [line] = [x for x in second.lines if x.startswith("glossary-bot:")]
    assert f"DATABASE_PATH={link}" in line, line
    assert "another bot runs on this SQLite file" in line, line
    assert "Traceback" not in second.output
    async with BotProcess(fake, link, cwd=tmp_path):  # the first gone, the link's bot runs
        _, card = await define(fake, scene.alice, "rag", scene.channel)
        assert embed_of(card)["title"] == "Retrieval-Augmented Generation (RAG)"


async def test_health_tells_a_bot_answering_without_its_database_from_one_that_is_down(
    scene: Scene, tmp_path: Path
) -> None:
    """A bot answering without its database wrote "unhealthy: connected to Discord, but the
    database …" in its heartbeat file; killed then (no stop to clear the file), `health` went on
    saying so for ever: a bot down read as one still answering. The line is said only while the
    bot keeps saying it; later, `health` says the bot is down and what it last said."""
    heartbeat = tmp_path / "heartbeat"
    bot = BotProcess(
        scene.fake, Path("missing/glossary-bot.db"), cwd=tmp_path, HEARTBEAT_PATH=str(heartbeat)
    )
    async with bot:  # a failed wait stops the bot too, rather than leaving it running
        _, card = await define(scene.fake, scene.alice, "kv cache", scene.channel)
        assert embed_of(card)["title"] == "KV Cache"
        await bot.wait_for_output("unhealthy: connected to Discord")  # logged once it is written
        bot.send_signal(signal.SIGKILL)
        assert await bot.exited() == -signal.SIGKILL

    healthy, said = check_heartbeat(heartbeat)  # just now: what it last said, still true
    assert (healthy, said.split(", but")[0]) == (False, "unhealthy: connected to Discord"), said
    healthy, said = check_heartbeat(heartbeat, now=time.time() + MAX_AGE + 5)
    assert not healthy
    assert said.startswith("down: nothing from the bot for "), said
    assert "it last said: unhealthy: connected to Discord, but the database" in said, said
