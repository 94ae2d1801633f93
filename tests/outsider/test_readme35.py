"""A newcomer follows the README (tests/outsider/PLAN.md, readme35): the command line, with
real SQLite files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.fake_discord import FakeDiscord
from tests.resilience.botproc import CLI_ENV, BotProcess, glossary_bot_waited


def _database_with_alias(cwd: Path, db: Path, alias: str) -> None:
    rows = [{"guild_id": 7, "alias": alias, "entry_id": "rag"}]
    (cwd / "aliases.json").write_text(json.dumps(rows))
    status, output = glossary_bot_waited(
        CLI_ENV, cwd, "aliases", "import", "aliases.json", "--db", str(db)
    )
    assert status == 0, output


def restoring(cwd: Path) -> tuple[Path, Callable[[], str]]:
    """A live database and a backup (aliases "qq live", "qq backup") in `cwd`: the name of the
    copies restore keeps of the live one, and a restore of the backup over it (its output; it
    must succeed)."""
    db, backup = cwd / "glossary-bot.db", cwd / "a.db"
    _database_with_alias(cwd, db, "qq live")
    _database_with_alias(cwd, backup, "qq backup")

    def restore() -> str:
        status, output = glossary_bot_waited(CLI_ENV, cwd, "restore", str(backup), "--db", str(db))
        assert status == 0, output
        return output

    return Path(f"{db}.before-restore"), restore


def _aliases(cwd: Path, db: Path) -> list[str]:
    status, output = glossary_bot_waited(CLI_ENV, cwd, "aliases", "export", "--db", str(db))
    assert status == 0, output
    return sorted(row["alias"] for row in json.loads(output))


def test_a_second_restore_keeps_the_database_the_first_one_replaced(tmp_path: Path) -> None:
    """A restore keeps the database it replaces as `….before-restore`; a second restore (the
    wrong backup first, then the right one) replaced that copy with the first backup's, and the
    database that served until the first restore was gone, unsaid. Now the earlier kept copy
    is moved aside under a name of its own, and the closing line names it."""
    db, first, second = tmp_path / "glossary-bot.db", tmp_path / "a.db", tmp_path / "b.db"
    _database_with_alias(tmp_path, db, "qq live")
    _database_with_alias(tmp_path, first, "qq first")
    _database_with_alias(tmp_path, second, "qq second")

    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "restore", str(first), "--db", str(db))
    assert status == 0, output
    status, output = glossary_bot_waited(CLI_ENV, tmp_path, "restore", str(second), "--db", str(db))
    assert status == 0, output
    assert _aliases(tmp_path, db) == ["qq second"]
    kept = Path(f"{db}.before-restore")
    assert _aliases(tmp_path, kept) == ["qq first"]
    earlier = Path(f"{db}.before-restore.1")
    assert _aliases(tmp_path, earlier) == ["qq live"]  # nothing stored is lost
    assert f"the copy an earlier restore kept is now {earlier}" in output, output


async def test_discord_out_of_reach_mid_run_is_one_line_a_retry(tmp_path: Path) -> None:
    """The bot on the fake, then the fake gone (Discord, or the host's network, out of reach):
    discord.py logged "Attempting a reconnect in N s" with a whole traceback (aiohttp's
    connector, 20 lines) at every retry, where the README promises operators one line. Now one
    line each, its cause at the end."""
    fake = FakeDiscord()
    await fake.start()
    try:
        async with BotProcess(fake, tmp_path / "bot.db", cwd=tmp_path) as bot:
            await fake.stop()
            line = await bot.wait_for_output("Attempting a reconnect", within=60, count=2)
            assert "Cannot connect to host 127.0.0.1" in line, line
            assert "Traceback" not in bot.output, bot.output
    finally:
        await fake.stop()
