"""Small faults found by review and outside testing and left for later (task ops14), each
through the real program: `glossary-bot run` against the fake Discord, the command line, real
SQLite files."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from tests.resilience.botproc import ROOT, BotProcess, glossary_bot

from .conftest import Scene

CLI_ENV = {"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"}
EMBED_LINKS = 1 << 14


async def test_a_card_the_bot_could_not_show_is_no_lookup(scene: Scene, tmp_path: Path) -> None:
    """A mention in a channel without Embed Links is answered with a line naming the card and
    the permission (outsider round 13, X12): nobody read the card, so `/stats` does not count
    it as a lookup; the same card where it can be shown is one."""
    fake = scene.fake
    for role in scene.other_guild.roles.values():
        role.permissions &= ~EMBED_LINKS
    async with BotProcess(fake, scene.db_path, cwd=tmp_path, COOLDOWN_USES="100"):
        await fake.user_message(scene.alice, scene.other_channel, f"{fake.bot.mention} rag")
        answer = await fake.wait_for_channel_message(scene.other_channel)
        assert "Embed Links" in answer["content"], answer
        await fake.user_message(scene.alice, scene.channel, f"{fake.bot.mention} rag")
        assert (await fake.wait_for_channel_message(scene.channel))["embeds"]
    counted = {}
    for guild in (scene.other_guild, scene.guild):
        status, said = await glossary_bot(
            CLI_ENV,
            tmp_path,
            "stats",
            "--db",
            str(scene.db_path),
            "--json",
            "--guild",
            str(guild.id),
        )
        assert status == 0, said
        counted[guild.id] = json.loads(said)["total_lookups"]
    assert counted == {scene.other_guild.id: 0, scene.guild.id: 1}


def _cli(cwd: Path, *args: str, file_size_limit: int | None = None) -> tuple[int, str]:
    """`glossary-bot` with its stderr read through a pipe, the disk filling up at
    `file_size_limit` bytes a file (a write past it fails with EFBIG, as ENOSPC on a full disk)."""

    def limited() -> None:
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        env=CLI_ENV,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limited,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def _database_with_a_term(tmp_path: Path) -> Path:
    terms = tmp_path / "terms.toml"
    terms.write_text(
        '[[entries]]\nid = "zorb"\ntitle = "Zorb"\ncategory = "Fundamentals"\n'
        'definition = "A zorb."\n',
        encoding="utf-8",
    )
    db = tmp_path / "g.db"
    status, said = _cli(tmp_path, "terms", "import", str(terms), "--guild", "5", "--db", str(db))
    assert status == 0, said
    return db


def test_a_full_disk_under_the_database_is_not_called_the_output(tmp_path: Path) -> None:
    """`migrate-db` on a disk that filled wrote the name of the holder into its lock file
    first, and that write failing read "cannot write the output: ...; what was written is cut
    short" (it printed nothing). The lock holds unnamed; the database's own error is said."""
    db = _database_with_a_term(tmp_path)
    status, said = _cli(
        tmp_path,
        "migrate-db",
        "--from",
        str(db),
        "--to",
        "postgresql://127.0.0.1:1/x",
        file_size_limit=0,
    )
    assert status == 1, said
    assert "output" not in said, said
    assert said.splitlines() == [
        "glossary-bot: error: the database could not be written (disk I/O error)"
    ], said
