"""left54 (tests/outsider/PLAN.md, "Leftovers (left54)"), on both backends: each test failing
on main 0f33958d first."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.glossary import load_glossary
from bot.glossary.interchange import export_bytes, import_cap
from bot.glossary.server_terms import ServerTerm
from bot.storage import Store
from bot.term_import import import_terms, server_import_cap
from bot.term_storage import TermChange, change_terms, read_terms

from .conftest import OpenStore

# A definition an export writes at twice its size (every quote and backslash escaped).
ESCAPED = '"\\' * 1_500
# 200 terms of some 3 KB of text: about 600 KB stored, an export of about 1.2 MB.
BIG = tuple(
    ServerTerm(
        id=f"zorbic-{n}",
        title=f"Zorbic Quux {n}",
        definition=f"Our zorbic job {n}: {ESCAPED}",
        category="Fundamentals",
    )
    for n in range(200)
)
LOWERED = (10, 1024)  # an operator's lowered caps: their import cap is the least, 1 MiB


async def test_a_server_past_a_lowered_text_cap_imports_its_own_export(
    open_any: OpenStore,
) -> None:
    """review60's leftover: the import's size limit was of the caps alone (`import_cap`, 1 MiB
    at caps lowered this far), so a server past them, whose own export is larger, had that
    export refused "the file is 1.2 MiB; at most 1 MiB." though its terms would be taken (a
    write no further past a cap is, review59). Now the limit is of what the server holds as
    well: its own export is taken, and a file past that limit is still refused unread."""
    store = await open_any()
    try:
        await change_terms(store, 7, lambda *_: (TermChange(put=BIG), None), 1)
        stored = await read_terms(store, 7)
        exported = export_bytes(stored)
        assert len(exported) > import_cap(*LOWERED)  # the case: larger than the caps' limit
        limit = await server_import_cap(store, 7, LOWERED)
        assert len(exported) <= limit
        assert await server_import_cap(store, 8, LOWERED) == import_cap(*LOWERED)  # no terms
        glossary = load_glossary()

        async def imported(data: bytes) -> list[str]:
            outcome = await import_terms(
                store,
                7,
                data,
                "terms.toml",
                glossary,
                actor_id=1,
                caps=LOWERED,
                dry_run=False,
            )
            return [p.message for p in outcome.errors]

        assert await imported(exported) == []  # before: "the file is 1.2 MiB; at most 1 MiB."
        assert await read_terms(store, 7) == stored
        [refused] = await imported(exported + b"#" * (limit + 1 - len(exported)))
        assert "at most" in refused, refused
        assert await read_terms(store, 7) == stored
    finally:
        await store.close()


def test_the_cli_imports_a_servers_own_export_past_a_lowered_text_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same through `glossary-bot terms import` (SQLite): the file was refused by its size
    ("… is 1.2 MiB; an import is at most 1 MiB") before the database was opened. Now a file
    past the caps' limit is measured against what the server holds; a piped one too."""
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_PATH", "DATABASE_URL", "GLOSSARY_PATHS"):
        monkeypatch.delenv(name, raising=False)
    db, exported = tmp_path / "bot.db", tmp_path / "own.toml"
    asyncio.run(_stored(db, BIG))
    where = ("--guild", "7", "--db", str(db))
    monkeypatch.setenv("MAX_SERVER_TERMS", str(LOWERED[0]))
    monkeypatch.setenv("MAX_SERVER_TERM_BYTES", str(LOWERED[1]))
    assert main(["terms", "export", *where, "--output", str(exported)]) == 0
    assert exported.stat().st_size > import_cap(*LOWERED)
    capsys.readouterr()
    assert main(["terms", "import", str(exported), *where]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith("Nothing changed: the file holds this server")
    with exported.open("rb") as piped:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(piped))
        assert main(["terms", "import", "-", *where]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith("Nothing changed: the file holds this server")
    too_big = tmp_path / "bigger.toml"
    too_big.write_bytes(exported.read_bytes() + b"#" * 2**20)
    assert main(["terms", "import", str(too_big), *where]) == 1
    assert "an import is at most" in capsys.readouterr().err


async def _stored(db: Path, terms: tuple[ServerTerm, ...]) -> None:
    store = await Store.open(db)
    try:
        await change_terms(store, 7, lambda *_: (TermChange(put=terms), None), 1)
    finally:
        await store.close()
