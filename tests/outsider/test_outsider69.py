"""Outsider round 39 (outsider69, PLAN.md): server glossaries used as moderators and
self-hosters use them. Each test failed on main b3ae2e07 first."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.cli import main
from bot.dburl import without_password
from bot.discord_app.app import GlossaryBot
from bot.glossary import load_glossary
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_storage import TermChange, change_terms, read_terms
from tests.conftest import TEST_DATABASE_URL
from tests.discord_app.conftest import StartBot
from tests.discord_app.helpers import define, embed_of, fields
from tests.storage.conftest import fresh_schema

from .conftest import Scene

# A file a script wrote from text typed on Windows: its line breaks are "\r\n" (and an old
# Mac's "\r") inside the strings, escaped, where the file's own line ends are plain.
WINDOWS_TEXT = """
[[entries]]
title = "Zorblax"
category = "Fundamentals"
definition = "Line one of the nightly job.\\r\\nLine two of it."
boundary = "Not the reranker.\\rNot the index either."
"""


async def import_file(scene: Scene, name: str, data: bytes | str, **options: Any) -> str:
    file = scene.fake.add_attachment(name, data)
    asked = await scene.fake.slash(
        scene.moderator, "term import", {"file": file, **options}, channel=scene.channel
    )
    return str((await asked.final_message())["content"])


async def test_line_breaks_escaped_in_an_imported_file_are_line_breaks(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    """README: a term's text may hold line breaks. A file whose strings carry Windows line
    breaks ("\\r\\n", escaped, as a script writing text typed on Windows leaves them; the
    topics JSON the same) was refused whole: "Definition: definition cannot contain control,
    invisible or direction characters", a character the moderator cannot see. The file's own
    line ends were already read as line breaks; now the ones inside its texts are too."""
    answer = await import_file(scene, "windows.toml", WINDOWS_TEXT)
    assert answer.startswith("Imported: 1 added"), answer
    [term] = await read_terms(store, scene.guild.id)
    assert term.definition == "Line one of the nightly job.\nLine two of it."
    assert term.boundary == "Not the reranker.\nNot the index either."
    _, card = await define(scene.fake, scene.alice, "zorblax", scene.channel)
    assert embed_of(card)["description"] == term.definition
    assert fields(card)["🚫 What it is not"] == term.boundary
    # The same file again changes nothing: it holds what the server holds.
    again = await import_file(scene, "windows.toml", WINDOWS_TEXT, dry_run=True)
    assert again.startswith("Dry run, nothing written. Would import: 0 added, 0 changed"), again


def _stored(db: Path, scope: int) -> None:
    async def put() -> None:
        store = await Store.open(db)
        try:
            term = ServerTerm(
                id="zorblax", title="Zorblax", definition="Ours.", category="Fundamentals"
            )
            await change_terms(store, scope, lambda *_: (TermChange(put=(term,)), None), 1)
        finally:
            await store.close()

    asyncio.run(put())


def test_terms_export_of_a_server_without_terms_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An operator exporting a server's terms with a wrong id (a channel's id copied for the
    server's, a digit off) got a file with no term in it, exit 0 and not a word: a backup
    that holds nothing and that `terms import` refuses ("no entries in the file"), where
    `/term export` says the server has no terms. Now one line on stderr names the server and
    the database, and the servers there that have terms (or aliases)."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "bot.db"
    _stored(db, 5)
    out = tmp_path / "backup.toml"
    assert main(["terms", "export", "--guild", "6", "--db", str(db), "-o", str(out)]) == 0
    said = capsys.readouterr().err
    assert said.splitlines() == [
        f"terms export: server 6 has no terms in {db}: the file holds none (servers with "
        "terms or aliases there: 5)"
    ], said
    assert main(["terms", "export", "--guild", "5", "--db", str(db), "-o", str(out)]) == 0
    assert capsys.readouterr().err == ""
    assert 'title = "Zorblax"' in out.read_text("utf-8")


def every_field(count: int) -> tuple[ServerTerm, ...]:
    """`count` terms that use every field a term has (the others' related, other names,
    keywords, a link), as a server that writes its glossary with care has them."""
    return tuple(
        ServerTerm(
            id=f"zorb-{n}",
            title=f"Zorb {n}",
            acronym=f"ZB{n}",
            category="Fundamentals",
            definition=f"What zorb {n} does for the team.",
            summary=f"Zorb {n} in a line.",
            boundary=f"Not zorb {n + 1}.",
            importance=f"Zorb {n} keeps the nightly run honest.",
            plain=f"A thing called zorb {n}.",
            keywords=(f"zorbing {n}",),
            reference=f"https://example.com/zorb/{n}",
            aliases=(f"zorbish {n}",),
            related=(f"zorb-{(n + 1) % count}",),
        )
        for n in range(count)
    )


async def test_a_server_at_its_cap_imports_its_own_export_back(
    scene: Scene, start_bot: StartBot, store: Store
) -> None:
    """README: `/term export` writes a file that imports back unchanged, and the import's cap
    leaves room for the export of a server at its caps. A server at its term cap whose terms
    use every field got "Nothing was imported: … tables, keys and lines: more than a glossary
    of N terms needs; is this a glossary file?" for its own export: the guard against TOML
    built to be slow to parse allowed 25 a term, and an export writes 33 (13 keys, 3 lists,
    the table header and a blank line)."""
    caps = (20, 2 * 1024 * 1024)
    await change_terms(
        store, scene.guild.id, lambda *_: (TermChange(put=every_field(caps[0])), None), 1
    )
    async with start_bot(store, term_caps=caps):
        asked = await scene.fake.slash(scene.moderator, "term export", {}, channel=scene.channel)
        exported = await asked.final_message()
        assert exported["content"].startswith("20 terms of this server"), exported
        data = scene.fake.attachment_bytes(exported["attachments"][0])
        answer = await import_file(scene, "ours.toml", data)
    assert answer.startswith("Nothing changed: the file holds this server's terms"), answer


def test_terms_import_takes_the_export_of_a_server_at_the_default_caps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same at the default caps through the command line: 2,000 terms with every field, an
    operator's `terms export` then `terms import` of that file (66,002 counted, 50,000 let
    through)."""
    monkeypatch.chdir(tmp_path)
    for name in ("MAX_SERVER_TERMS", "MAX_SERVER_TERM_BYTES"):
        monkeypatch.delenv(name, raising=False)
    db, out = tmp_path / "bot.db", tmp_path / "ours.toml"

    async def put() -> None:
        store = await Store.open(db)
        try:
            terms = every_field(2000)
            await change_terms(store, 5, lambda *_: (TermChange(put=terms), None), 1)
        finally:
            await store.close()

    asyncio.run(put())
    where = ("--guild", "5", "--db", str(db))
    assert main(["terms", "export", *where, "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["terms", "import", str(out), *where]) == 0, capsys.readouterr()
    assert capsys.readouterr().out.startswith("Nothing changed: the file holds this server")


def test_a_maintainers_file_reads_line_breaks_in_its_strings_as_the_import_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A self-hoster's own glossary file with the same Windows line breaks in its strings:
    `glossary-bot check` said "error: definition cannot contain control, invisible or
    direction characters" (so the bot would not start on it) where `/term import` takes the
    file. The readers now read them as line breaks for both."""
    folder = tmp_path / "mine"
    folder.mkdir()
    text = WINDOWS_TEXT.replace("[[entries]]", '[[entries]]\nid = "zorblax"')
    (folder / "mine.toml").write_text(text, "utf-8")
    assert main(["check", "-q", str(folder)]) == 0, capsys.readouterr().out
    zorblax = load_glossary([folder])["zorblax"]
    assert zorblax.definition == "Line one of the nightly job.\nLine two of it."
    assert zorblax.boundary == "Not the reranker.\nNot the index either."


@pytest.mark.postgres
async def test_terms_export_of_a_server_without_terms_names_a_postgresql_database_safely(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same line for a `--db` URL: the database named without its password."""
    async with fresh_schema(TEST_DATABASE_URL) as url:
        store = await Store.open(url, flush_interval=None)
        try:
            await change_terms(
                store, 5, lambda *_: (TermChange(put=every_field(1)), None), actor_id=1
            )
        finally:
            await store.close()
        argv = ["terms", "export", "--guild", "6", "--db", url]
        assert await asyncio.to_thread(main, argv) == 0
    said = capsys.readouterr().err
    assert said.splitlines() == [
        f"terms export: server 6 has no terms in {without_password(url)}: the file holds none "
        "(servers with terms or aliases there: 5)"
    ], said
    if urlsplit(url).password:
        assert url not in said  # the URL as given, password and all
