"""product68 (PLAN.md, "Hardening (product68)"): settings. A value of only spaces, quoted or
not, means the default, and a value's surrounding spaces are dropped, inside quotes too, in
`.env` as through `--env-file` (the environment): review66's and review67's leftover. No bot."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.settings import Settings, load_settings

LINES = {
    "COOLDOWN_USES": '" "',  # `.env` kept the space: "not valid" where `--env-file` served 5
    "HEARTBEAT_PATH": "' '",  # a heartbeat written to a file named " "
    "DATABASE_PATH": '"  /data/a b.db  "  # the main one',
    "METRICS_HOST": '"\\t"',  # a tab, decoded in double quotes
}
READ = {
    "cooldown_uses": 5,
    "heartbeat_path": None,
    "database_path": Path("/data/a b.db"),
    "metrics_host": "127.0.0.1",
}


@pytest.mark.parametrize("where", ["dotenv", "env-file"])
def test_spaces_around_a_value_are_dropped_in_dotenv_as_in_the_environment(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same lines through `.env` and through `podman --env-file` (which passes each value
    as written, quotes and all): one reading. python-dotenv keeps a quoted `" "`; the bot's
    reading of the environment took it for the default, so `.env` and the image disagreed on
    the same file (COOLDOWN_USES `" "`: "not valid" from `.env`, 5 from `--env-file`)."""
    text = "".join(f"{name}={value}\n" for name, value in LINES.items())
    written = dotenv_values(stream=io.StringIO(text))
    assert written["COOLDOWN_USES"] == " "  # what python-dotenv itself reads: the space kept
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(Settings.model_config, "env_file", (".env",))
    for name in LINES:
        monkeypatch.delenv(name, raising=False)
    if where == "dotenv":
        (tmp_path / ".env").write_text(text, "utf-8")
    else:
        for name, value in LINES.items():
            monkeypatch.setenv(name, value)
    settings = load_settings()
    assert {field: getattr(settings, field) for field in READ} == READ


def test_spaces_in_dotenv_leave_the_installations_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """round6's K5 for `.env`: `HEARTBEAT_PATH=" "` there replaced the image's default with a
    file named " " (through `--env-file` it already left the default)."""
    defaults = tmp_path / "defaults.env"
    defaults.write_text("HEARTBEAT_PATH=/tmp/hb\n", "utf-8")
    (tmp_path / ".env").write_text('HEARTBEAT_PATH=" "\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(Settings.model_config, "env_file", (str(defaults), ".env"))
    monkeypatch.delenv("HEARTBEAT_PATH", raising=False)
    assert load_settings().heartbeat_path == Path("/tmp/hb")
