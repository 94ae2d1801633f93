"""review69 (PLAN.md, "review69"): attacks on product68's one rule for a setting's value, "a
value's surrounding spaces are dropped, inside quotes too, in `.env` as in the environment;
only spaces means the default" (README, Settings). The same lines read through `.env` and
through `podman --env-file` (the environment, each value as written) must read alike. No bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, load_settings

# (the value as written on the line, what HEARTBEAT_PATH then is: None = the default)
LINES = [
    ("", None),  # `NAME=`: empty, the default
    ('" "', None),  # a quoted space: the default, as empty
    ('"   "', None),
    ("'\t'", None),  # a quoted tab (single quotes keep it as typed)
    ('"\\t"', None),  # `\t` decoded in double quotes: a tab
    ('" \\t "', None),
    ('"\u00a0"', None),  # a no-break space, as str.strip drops it: whitespace to Python too
    ('" /data/hb "', Path("/data/hb")),  # quotes around spaces and a path: the path
    ('"/data/a b"', Path("/data/a b")),  # a space inside is the value's own
    ('"/data/a\u00a0b"', Path("/data/a\u00a0b")),  # and a no-break space inside
    ('" "  # none', None),  # a comment after a quoted space
    ("\t", None),  # a bare tab
    ("\u00a0", None),  # a bare no-break space
    ("/data/hb\t# note", Path("/data/hb")),  # a tab before the comment
]


@pytest.mark.parametrize("where", ["dotenv", "env-file"])
@pytest.mark.parametrize(("written", "read"), LINES, ids=[repr(w) for w, _ in LINES])
def test_a_value_reads_alike_in_dotenv_and_through_env_file(
    where: str,
    written: str,
    read: Path | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(Settings.model_config, "env_file", (".env",))
    monkeypatch.delenv("HEARTBEAT_PATH", raising=False)
    if where == "dotenv":
        (tmp_path / ".env").write_text(f"HEARTBEAT_PATH={written}\n", "utf-8")
    else:
        monkeypatch.setenv("HEARTBEAT_PATH", written)
    assert load_settings().heartbeat_path == read


@pytest.mark.parametrize("written", ["", '" "', '"\\t"', "'\u00a0'"])
@pytest.mark.parametrize("where", ["dotenv", "env-file"])
def test_only_spaces_leave_a_number_at_its_default(
    where: str, written: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """COOLDOWN_USES of only spaces (any kind) is 5, never "not valid" from one source and 5
    from the other."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(Settings.model_config, "env_file", (".env",))
    monkeypatch.delenv("COOLDOWN_USES", raising=False)
    if where == "dotenv":
        (tmp_path / ".env").write_text(f"COOLDOWN_USES={written}\n", "utf-8")
    else:
        monkeypatch.setenv("COOLDOWN_USES", written)
    assert load_settings().cooldown_uses == 5
