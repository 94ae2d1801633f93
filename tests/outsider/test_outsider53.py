"""outsider53: outsider round 36 (PLAN.md, "Outsider round 36 (outsider53)"). A moderator
starting a server's own glossary from nothing, with files written by hand; the command line on
a real SQLite file (`/term import` reads files by the same rules). Failing on main d8c5eaf6
first."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage import Store


async def _made(db: Path) -> None:
    """The database the bot makes at its first start."""
    await (await Store.open(db, flush_interval=None)).close()


# What a moderator writes after reading "the Markdown glossary (headings ending in ¶)": the
# terms from the first line, some as Markdown headings.
HAND_WRITTEN = "Zorblax¶\n\nOur nightly eval run.\n\n## Blorptex ¶\n\nThe dashboard it fills.\n"


def test_a_markdown_file_s_first_heading_is_not_dropped_unsaid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Markdown glossary's first heading is its title (the bundled file's "Glossary¶",
    an introduction below it): a moderator's file whose first line is a term lost that term
    without a word ("Imported: 1 added"), and a heading written as Markdown ("## Blorptex ¶")
    was imported titled "## Blorptex". Now the import says which heading it takes as the
    file's title, and a heading's Markdown marks are not part of the term's name."""
    db = tmp_path / "g.db"
    asyncio.run(_made(db))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(HAND_WRITTEN.encode())))
    code = main(
        ["terms", "import", "-", "--guild", "5", "--db", str(db), "--category", "Fundamentals"]
    )
    said = capsys.readouterr()
    assert code == 0, said.err
    # The heading taken as the title, named.
    assert "the first heading, “Zorblax”, is read as the file's title" in said.out
    assert "  Blorptex\n" in said.out, said.out
    assert "##" not in said.out, said.out  # the title as stored and listed
