"""outsider77: a new moderator's first week, run as users run it (tests/outsider/PLAN.md)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bot.discord_app.app import GlossaryBot
from bot.storage import Store

from .conftest import Scene
from .test_product71 import _run


def _into_a_closed_pipe(arguments: list[str], home: Path) -> int:
    """`glossary-bot ARGUMENTS 2>&1 | true`: both streams into a pipe whose reader has gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return _run([sys.executable, "-m", "bot", *arguments], home, stdout=write, stderr=write)
    finally:
        os.close(write)


@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        (["terms", "import", "nosuch.toml", "--guild", "1", "--db", "a.db"], 1),
        (["terms", "import", "bad.toml", "--guild", "1", "--db", "a.db", "--dry-run"], 1),
        (["terms", "export", "--guild", "1", "--db", "missing.db"], 1),
        (["export"], 0),
    ],
    ids=["missing file", "refused import", "missing database", "export"],
)
def test_a_failure_said_into_a_gone_pipe_keeps_its_status(
    tmp_path: Path, arguments: list[str], status: int
) -> None:
    """A refused import (or a missing file, a missing database) whose stderr went into a pipe
    whose reader had gone (`terms import f --guild 1 2>&1 | head -1` in a script with pipefail)
    exited 0, as if imported: the BrokenPipeError of its error line was taken for `export |
    head`'s, which is no error. Its own status now; `export | head` still 0."""
    (tmp_path / "bad.toml").write_text("[[entries]]\nid = 'x'\n", encoding="utf-8")
    assert _into_a_closed_pipe(arguments, tmp_path).returncode == status


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ('DISCORD_TOKEN="fake-bot-token', "DISCORD_TOKEN"),
        ("LOG_LEVEL='INFO", "LOG_LEVEL"),
        ('export DATABASE_PATH="data/bot.db" # where', None),
        ('DATABASE_PATH="data/bot.db" the file', "DATABASE_PATH"),
    ],
    ids=["token quote open", "single quote open", "fine", "words after the quote"],
)
def test_a_dotenv_line_it_cannot_read_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, name: str | None
) -> None:
    """A `.env` line whose quote does not close was dropped by python-dotenv, which logged only
    "could not parse statement starting at line 3" (twice, before logging was set up), and the
    bot then said "DISCORD_TOKEN is not set: put it ... in .env", where it was; a LOG_LEVEL so
    written was the default without a word. Now one line naming the setting and its line, as
    the same value given through the environment (`--env-file`) already was."""
    from bot.settings import Settings, SettingsError, load_settings

    monkeypatch.chdir(tmp_path)
    for field in Settings.model_fields:
        monkeypatch.delenv(field.upper(), raising=False)
    (tmp_path / ".env").write_text(f"# settings\nCOOLDOWN_USES=5\n{line}\n", "utf-8")
    if name is None:
        assert load_settings().database_path == Path("data/bot.db")
        return
    with pytest.raises(SettingsError) as refused:
        load_settings()
    said = str(refused.value)
    assert said.startswith(f"bad setting: {name} (line 3 of .env) is not read: its quote")
    assert "fake-bot-token" not in said


@pytest.mark.parametrize(
    ("definition", "why"),
    [
        ("Ping @everyone when the zorb engine stalls.", "cannot contain mentions"),
        ("Ask <@&42> about the zorb engine first.", "cannot contain mentions"),
        ("Ships again at <t:1700000000:R>, ask then.", "cannot contain Discord markup"),
    ],
    ids=["everyone", "role", "timestamp"],
)
async def test_a_suggestion_whose_words_no_term_may_hold_is_refused_as_sent(
    scene: Scene, bot: GlossaryBot, store: Store, definition: str, why: str
) -> None:
    """alice's `/suggest` with what it means holding a mention or Discord markup was queued;
    the moderator's **Accept…** form then refused to save it ("Definition: definition cannot
    contain mentions (or look like @everyone, @here)"), leaving the moderator to rewrite the
    member's words. Refused as sent now, as a name no term may have is, the words given back."""
    fake = scene.fake
    opened = await fake.slash(
        scene.alice, "suggest", {"term": "Zorb Engine"}, channel=scene.channel
    )
    assert (await opened.response())["type"] == 9
    sent = await fake.submit_modal(scene.alice, opened, {"definition": definition})
    said = str((await sent.final_message())["content"])
    assert f"What it means {why}" in said, said
    assert "Nothing was queued" in said, said
    assert await store.open_suggestions(scene.guild.id) == []


async def test_a_suggestion_with_characters_that_show_nothing_is_queued_and_accepted(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """Held: what shows nothing (a zero-width space pasted from a web page, a direction mark)
    is no reason to refuse the member: queued as written (Accept…'s form is filled without it,
    which `/term review`'s Accept… does, so it saves)."""
    fake = scene.fake
    opened = await fake.slash(
        scene.alice, "suggest", {"term": "Zorb Engine"}, channel=scene.channel
    )
    await opened.response()
    definition = "Our in-house\u200b engine, \u202eenigne\u202c pasted from the wiki."
    sent = await fake.submit_modal(scene.alice, opened, {"definition": definition})
    assert str((await sent.final_message())["content"]).startswith("Thanks!")
    [waiting] = await store.open_suggestions(scene.guild.id)
    assert waiting.definition == definition


@pytest.mark.parametrize(
    ("arguments", "piped", "said"),
    [
        (["aliases", "import", "-"], b"\x89PNG\r\n\x1a\n\x00\x00", "cannot read standard input: "),
        (["aliases", "import", "-"], b'[{"guild_id": 1', "cannot read standard input: not JSON"),
        (["aliases", "import", "-"], b'{"guild_id": 1}', "standard input: expected a JSON list"),
        (["terms", "import", "-", "--guild", "1"], b"x" * (5 << 20), "standard input is too big"),
    ],
    ids=["aliases binary", "aliases not json", "aliases not a list", "terms too big"],
)
def test_a_file_piped_in_is_named_standard_input(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    piped: bytes,
    said: str,
) -> None:
    """`aliases import -` and `terms import -` named what was piped in "-": "glossary-bot:
    error: cannot read -: this is a binary file", "- is too big". Said "standard input"."""
    import io

    from bot.cli import main

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(piped)))
    assert main([*arguments, "--db", str(tmp_path / "a.db")]) == 1
    assert capsys.readouterr().err.startswith(f"glossary-bot: error: {said}")


async def test_a_database_that_stays_read_only_says_its_reopening_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The container restarted with its /data made read-only (`chmod 555` the folder, `444`
    the file): one ERROR "cannot write the database …: the database is read-only", health red,
    and then "reopened the database connection to /data/glossary-bot.db" at INFO every 10 s
    for as long as it lasted (each heartbeat's write reopens it, and fails as before): a log
    whose tail read as recovered. Said once a failure (at DEBUG after), until writes work."""
    import logging
    import sqlite3

    from bot.storage import StorageError
    from bot.storage.sqlite import channel as channels

    path = tmp_path / "g.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x INTEGER)").connection.close()
    writable = [False]
    opened = channels.connect

    async def connect(path: str, *, busy_timeout: float, query_only: bool) -> object:
        # The file as a read-only folder leaves it: each new connection cannot write it.
        return await opened(path, busy_timeout=busy_timeout, query_only=not writable[0])

    monkeypatch.setattr(channels, "connect", connect)

    async def insert(conn: object) -> None:
        await conn.execute("INSERT INTO t VALUES (1)")  # type: ignore[attr-defined]

    channel = await channels.Channel.open(str(path), busy_timeout=1, query_only=False, conn=None)
    caplog.set_level(logging.INFO, logger=channels.__name__)
    try:
        for _ in range(5):
            with pytest.raises(StorageError):
                await channel.run(insert, write=True)
        said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
        assert sum("reopened the database connection" in line for line in said) <= 1, said
        assert sum("cannot write the database" in line for line in said) == 1, said
        writable[0] = True
        await channel.run(insert, write=True)
        assert any("takes writes again" in r.getMessage() for r in caplog.records)
    finally:
        await channel.close()


async def test_two_moderators_editing_one_term_at_once(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """T1 (held): mo and the owner open `/term edit Zorblax` at once; the owner saves first;
    mo's save is told someone else saved it and keeps mo's text; its Edit again then saves mo's
    words over the owner's on purpose."""
    from tests.discord_app.helpers import buttons
    from tests.discord_app.term_commands import TERM, add_term, open_edit, submit

    fake = scene.fake
    assert (await add_term(scene))["content"].startswith("Added **Zorblax**")
    mine = await open_edit(scene, scene.moderator, "Zorblax")
    theirs = await open_edit(scene, scene.owner, "Zorblax")
    owner_text = {**TERM, "definition": "The owner's words for the nightly rerank job."}
    said = await submit(scene, scene.owner, theirs, owner_text)
    saved_line = "Saved **Zorblax** in this server's glossary: `/define Zorblax`."
    assert said["content"] == saved_line, said
    mo_text = {**TERM, "definition": "Mo's words for the nightly rerank job."}
    told = await submit(scene, scene.moderator, mine, mo_text)
    assert "someone else changed this term while you edited it" in told["content"], told
    assert "Edit again" in buttons(told), told
    assert await _definitions(store, scene) == [owner_text["definition"]]
    again = await fake.click(scene.moderator, told, buttons(told)["Edit again"])
    assert (await again.response())["type"] == 9
    saved = await submit(scene, scene.moderator, again, {})
    assert saved["content"] == saved_line, saved
    assert await _definitions(store, scene) == [mo_text["definition"]]


async def _definitions(store: Store, scene: Scene) -> list[str]:
    import json

    return [json.loads(term.body)["definition"] for term in await store.terms(scene.guild.id)]


def test_a_read_only_database_file_says_which_user_cannot_write_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The container (user 10001) started on a /data whose file is `chmod 444`: the log and
    `health` said only "the database is read-only", where a file the bot cannot create says
    which folder and which user. Now the file and the user, so the operator knows to chown or
    chmod it (os.access as that user: root writes anything, so it is stood in for here)."""
    import sqlite3

    from bot.storage.sqlite import errors

    path = tmp_path / "g.db"
    path.write_bytes(b"")
    readonly = sqlite3.OperationalError("attempt to write a readonly database")
    readonly.sqlite_errorcode = sqlite3.SQLITE_READONLY  # type: ignore[attr-defined]
    readonly.sqlite_errorname = "SQLITE_READONLY"  # type: ignore[attr-defined]
    writable = os.access
    monkeypatch.setattr(
        errors.os,
        "access",
        lambda p, mode: (mode & os.W_OK == 0) and writable(p, mode),
    )
    said = str(errors.as_storage_error(readonly, str(path)))
    assert said == (
        f"the database is read-only: the file {path} is not writable by this process "
        f"(user {os.getuid()})"
    )
    assert str(errors.as_storage_error(readonly)) == "the database is read-only"


@pytest.mark.parametrize(
    ("definition", "said"),
    [
        (
            "The Zorb Engine is our in\u200bhouse engine, and a long text goes on after it.",
            "(U+200B ZERO WIDTH SPACE, after “in”)",
        ),
        ("\u202eThe Zorb Engine, turned around.", "(U+202E RIGHT-TO-LEFT OVERRIDE, first)"),
        ("The Zorb Engine.\x07", "(U+0007 a control character, after “Engine”)"),
    ],
    ids=["zero width", "override first", "bell"],
)
def test_an_invisible_character_in_a_file_is_named_and_placed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], definition: str, said: str
) -> None:
    """A definition pasted from a web page into a hand-edited export held a zero-width space:
    `terms import` (and /term import, the form) said "Definition: definition cannot contain
    control, invisible or direction characters.", naming the entry's first line, not which
    character nor where in 4,000 characters a person cannot see it. Now which, and after what."""
    import json

    from bot.cli import main

    path = tmp_path / "terms.toml"
    body = {"id": "zorb-engine", "title": "Zorb Engine", "category": "Fundamentals"}
    lines = [f"{key} = {json.dumps(value)}" for key, value in body.items()]
    lines.append(f"definition = {json.dumps(definition)}")
    path.write_text("[[entries]]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    assert main(["terms", "import", str(path), "--guild", "1", "--db", str(tmp_path / "a.db")]) == 1
    err = capsys.readouterr().err
    assert (
        f"Definition: definition cannot contain control, invisible or direction characters {said}."
        in err
    ), err
