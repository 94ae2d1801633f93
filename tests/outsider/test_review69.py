"""review69 (PLAN.md, "review69"): attacks on product68, no bot. Its one rule for a setting's
value, "a value's surrounding spaces are dropped, inside quotes too, in `.env` as in the
environment; only spaces means the default" (README, Settings): the same lines read through
`.env` and through `podman --env-file` (the environment, each value as written) must read alike.
Its rule for a 404 (PLAN.md product68 2): one WARNING where the request's route carries the
interaction's token, "a 404 of another route is unchanged" (an ERROR with an error id)."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord_app.errors import report_error
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


TOKEN = "aW50ZXJhY3Rpb24tdG9rZW4"
API = "https://discord.com/api/v10"


class Answered:
    """An interaction's `response` as report_error uses it: what it was told to send."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, **_: Any) -> None:
        self.sent.append(text)


def interaction(token: str) -> Any:
    return SimpleNamespace(
        id=1,
        token=token,
        user=SimpleNamespace(id=2),
        command=SimpleNamespace(qualified_name="term log"),
        data={},
        type=discord.InteractionType.component,
        response=Answered(),
        extras={},  # as every discord.Interaction has (errors.responded reads it)
    )


def not_found(url: str, code: int) -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found", url=url)
    return discord.NotFound(response, {"code": code, "message": "Unknown"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("url", "code", "token", "level"),
    [
        (f"{API}/webhooks/3/{TOKEN}/messages/4", 10008, TOKEN, "WARNING"),  # its own answer
        (f"{API}/interactions/1/{TOKEN}/callback", 10062, TOKEN, "WARNING"),
        (f"{API}/channels/5/messages", 10003, TOKEN, "ERROR"),  # another route
        (f"{API}/guilds/6/members/7", 10007, TOKEN, "ERROR"),
        (f"{API}/channels/5/messages", 10008, "", "ERROR"),  # no token: no route is its
    ],
    ids=["own-10008", "own-10062", "channel-10003", "member-10007", "no-token"],
)
async def test_a_404_is_one_warning_only_on_the_interactions_own_route(
    url: str, code: int, token: str, level: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    asked = interaction(token)
    await report_error(asked, not_found(url, code))
    said = [r for r in caplog.records if r.name == "bot.discord_app.errors"]
    assert [r.levelname for r in said] == [level], caplog.text
    if level == "ERROR":  # the user told an error id, the traceback logged
        assert said[0].exc_info is not None
        assert [t.startswith("Something went wrong") for t in asked.response.sent] == [True]
    else:
        assert asked.response.sent == []  # nothing a user can be told
