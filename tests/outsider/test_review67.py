"""Attacks on last session's changes (review67): env-file values python-dotenv decodes or
refuses. No bot, no clock.

Plan and findings: tests/outsider/PLAN.md, "Attacks on last session's changes (review67)"."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.settings import SettingsError, comments_read_off, load_settings


def _dotenv_reads(written: str) -> str | None:
    return dotenv_values(stream=io.StringIO(f"DATABASE_PATH={written}\n")).get("DATABASE_PATH")


@pytest.mark.parametrize(
    "written",
    [
        r'"/data/a\tb.db"',
        r'"/data/a\"b.db"  # quoted quote',
        r'"/data/a\\b.db"',
        r"'/data/a\'b.db'",
        r"'/data/a\nb.db'",  # single quotes: only \\ and \' are escapes
        r'"/data/a\xb.db"',  # no escape dotenv knows: kept
        '"/data/a b.db" # why',
    ],
)
@pytest.mark.usefixtures("no_dotenv")
def test_escapes_in_quotes_are_read_as_dotenv_reads_them(
    written: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Self-hoster: `DATABASE_PATH="/data/a\\"b.db"` in the env file. `.env` (python-dotenv)
    decodes a double-quoted value's escapes (`\\"`, `\\\\`, `\\t`, `\\n`...) and a single-quoted
    one's `\\'` and `\\\\`; through `--env-file` the bot kept the backslashes, and on
    `"a\\" # c"` took the quote after the backslash for the closing one: two readings of one
    line, each a different database file."""
    monkeypatch.setenv("DATABASE_PATH", written)
    assert load_settings().database_path == Path(_dotenv_reads(written) or "")
    commented = ["DATABASE_PATH"] if "#" in written else []
    assert [line.split()[0] for line in comments_read_off()] == commented


@pytest.mark.parametrize("written", ['"/data/a.db', "'/data/a.db", '"5"x', '"a" "b"', '"a\\"'])
@pytest.mark.usefixtures("no_dotenv")
def test_a_value_dotenv_cannot_read_is_refused_naming_the_setting(
    written: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unbalanced quote (`DATABASE_PATH="/data/a.db`), or words after the closing one: `.env`
    drops the line (the setting's default then, with dotenv's warning); through `--env-file` the
    bot served a file named with the quote in it (WORKDIR /data: a second, empty database) and
    said nothing. Now one line naming the setting and what is wrong, as any bad value."""
    assert _dotenv_reads(written) is None  # `.env` cannot read it either
    monkeypatch.setenv("DATABASE_PATH", written)
    with pytest.raises(SettingsError) as raised:
        load_settings()
    said = str(raised.value)
    assert said.startswith("bad setting: DATABASE_PATH="), said
    assert "quote" in said, said


@pytest.mark.usefixtures("no_dotenv")
def test_a_token_dotenv_cannot_read_is_refused_without_showing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The token's text is never shown, in this line either."""
    monkeypatch.setenv("DISCORD_TOKEN", '"secret-token-text')
    with pytest.raises(SettingsError) as raised:
        load_settings()
    said = str(raised.value)
    assert said.startswith("bad setting: DISCORD_TOKEN is not read"), said
    assert "secret" not in said, said


@pytest.mark.usefixtures("no_dotenv")
def test_export_with_a_tab_counts_as_dotenv_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`export<TAB>COOLDOWN_USES=7` in an env file: `.env` reads COOLDOWN_USES=7 (dotenv takes
    any whitespace after `export`); `podman run --env-file` passes the name `export\\tCOOLDOWN_USES`,
    which the bot ignored without a word (only `export ` with a space was read), serving 5."""
    assert dotenv_values(stream=io.StringIO("export\tCOOLDOWN_USES=7\n")) == {"COOLDOWN_USES": "7"}
    monkeypatch.setenv("export\tCOOLDOWN_USES", "7")
    assert load_settings().cooldown_uses == 7
