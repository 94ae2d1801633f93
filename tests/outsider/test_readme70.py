"""readme70: README.md, `.env.example` and the command line name the same settings, commands and
flags (tests/outsider/PLAN.md, "readme70"). An operator reads one of them, never all three."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from bot import cli
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")

# Read from the environment by the search core, not a setting of `Settings`: the README's table
# says so, and `.env.example` leaves it out on purpose (`run` names it in a WARNING from `.env`).
ENVIRONMENT_ONLY = {"GLOSSARY_CACHE_DIR"}


def section(heading: str) -> str:
    start = README.index(f"\n{heading}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end]


def cells(row: str) -> list[str]:
    return re.split(r"(?<!\\)\|", row)  # `\|` is a bar inside a cell


def readme_settings() -> set[str]:
    names: set[str] = set()
    for line in section("## Settings").splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Z][A-Z_]+)`", cells(line)[1]))
    return names


def test_every_setting_is_in_the_readme_table_and_in_env_example() -> None:
    settings = {name.upper() for name in Settings.model_fields}
    example = set(re.findall(r"^([A-Z][A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert readme_settings() == settings | ENVIRONMENT_ONLY
    assert example == settings


def said(value: object) -> str:
    """A default as README writes it: 60, not 60.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_the_readme_defaults_are_the_settings_and_env_examples() -> None:
    """Each default README's table gives in a value of its own (`60`, `INFO`) is the setting's,
    and `.env.example`'s where it writes one (it leaves some empty: the default, or the image's)."""
    example = dict(re.findall(r"^([A-Z][A-Z_]+)=(.*)$", (ROOT / ".env.example").read_text(), re.M))
    compared = 0
    for line in section("## Settings").splitlines():
        if not line.startswith("| `"):
            continue
        row = cells(line)
        names = re.findall(r"`([A-Z][A-Z_]+)`", row[1])
        defaults = re.findall(r"`([^`]*)`", row[2])
        if len(defaults) != len(names) or set(names) & ENVIRONMENT_ONLY:
            continue  # "unset", "the bundled `data/`": said in words
        for name, default in zip(names, defaults, strict=True):
            value = Settings.model_fields[name.lower()].default
            if value not in (None, ""):
                assert said(value) == default, name
                compared += 1
            if example[name]:
                assert example[name] == default, name
    assert compared >= 15


def commands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> dict[str, argparse.ArgumentParser]:
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if sub.get_default("handler"):
                    found[f"{prefix}{name}"] = sub
                found |= commands(sub, f"{prefix}{name} ")
    return found


def options(parser: argparse.ArgumentParser) -> list[set[str]]:
    """Each option's spellings (`-q`, `--quiet`), help left out."""
    return [
        set(action.option_strings)
        for action in parser._actions
        if action.option_strings and not isinstance(action, argparse._HelpAction)
    ]


FLAG = re.compile(r"(?<![\w-])--?[a-z][a-z-]*")


def readme_rows() -> dict[str, set[str]]:
    """The Command line table: each command's flags as its row's first cell writes them."""
    text = section("## Command line")
    table = text[text.index("| command | what |") :].split("\n\n")[0]
    rows = {}
    for line in table.splitlines()[2:]:
        cell = cells(line)[1].strip()
        words = cell.strip("`").split()[1:]
        name = " ".join(w for w in words[:2] if re.fullmatch(r"[a-z][a-z-]*", w))
        rows[name] = set(FLAG.findall(cell))
    return rows


def shared_flags() -> dict[str, set[str]]:
    """The lines under the table that give `--data` and `--db` to several commands at once."""
    text = section("## Command line")
    data = re.search(r"`--data PATH` \(repeatable\) makes (.*?) load", text, re.S)
    db = re.search(r"\n(`stats`[^\n]*?) use `DATABASE_URL` when set", text)
    assert data, "the line giving --data to several commands moved"
    assert db, "the line giving --db to several commands moved"
    return {
        "--data": set(re.findall(r"`([a-z-]+)`", data[1])),
        "--db": set(re.findall(r"`([a-z-]+)`", db[1])),
    }


def test_every_command_and_flag_of_help_is_in_the_readme_and_back() -> None:
    """readme70 found `backup` and `aliases import` taking `--quiet` (their help says so, and the
    README's progress line names it) while their rows showed none."""
    parsers = commands(cli.build_parser())
    rows = readme_rows()
    assert set(rows) == set(parsers)
    shared = shared_flags()
    missing, unknown = [], []
    for name, parser in parsers.items():
        shown = set(rows[name])
        shown |= {flag for flag, named in shared.items() if name.split()[0] in named}
        spellings = options(parser)
        missing += [f"{name} {sorted(s)}" for s in spellings if not s & shown]
        unknown += [f"{name} {flag}" for flag in shown if not any(flag in s for s in spellings)]
    assert not missing, "in --help, not in README's row"
    assert not unknown, "in README, not in --help"
    assert "`glossary-bot --version`" in section("## Command line")
