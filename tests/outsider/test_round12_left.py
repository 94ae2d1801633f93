"""What round 12 of outside testing noticed and left (tests/outsider/PLAN.md, round 12, "Noticed,
left"), each through the real command line or the bot against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from tests.resilience.botproc import ROOT, glossary_bot

CLI_ENV = {"PYTHONPATH": str(ROOT), "GLOSSARY_PATHS": "", "PATH": "/usr/bin:/bin"}


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
