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
