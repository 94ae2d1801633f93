"""left57: outsider53's leftovers (PLAN.md, "Leftovers of outsider53 (left57)"). The command
line on a real SQLite file, in-process; each test failing on integ 98aa97a5 first."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage import Store

# A moderator's hand-written file: one term written twice (a paste), no ids.
TWICE = (
    '[[entries]]\ntitle = "Zorblax"\ncategory = "Fundamentals"\ndefinition = "Our eval run."\n\n'
    '[[entries]]\ntitle = "Zorblax"\ncategory = "Fundamentals"\ndefinition = "Again."\n'
)


async def _made(db: Path) -> None:
    """The database the bot makes at its first start."""
    await (await Store.open(db, flush_interval=None)).close()


def _import(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["terms", "import", *args, "--guild", "5"])
    said = capsys.readouterr()
    return code, said.out, said.err


def test_a_title_twice_in_a_file_names_the_file_s_line_not_a_server_term(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file's own first "Zorblax" was reported as "already a name of this server's term
    “Zorblax”" on a server without terms: a moderator looks for a term that is not there.
    The clash is named as the file's own line."""
    db, file = tmp_path / "g.db", tmp_path / "twice.toml"
    asyncio.run(_made(db))
    file.write_text(TWICE)
    code, out, err = _import(capsys, str(file), "--db", str(db))
    assert code == 1, out
    assert (
        "line 6, “Zorblax”, Title: “Zorblax” is already a name of “Zorblax” on line 1 of this "
        "file." in err
    ), err
    assert "this server's term" not in err, err


def test_a_dry_run_before_the_bot_ever_ran_says_what_the_import_would_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A self-hoster starting a glossary from the command line tries the dry run first: it
    said "there is no database at …", though the import itself makes the database (as the
    bot's first start does). The dry run now reads the file as into a new database, says it
    will make one, and still writes nothing."""
    db, file = tmp_path / "g.db", tmp_path / "ours.toml"
    file.write_text(TWICE.split("\n\n")[0] + "\n")
    code, out, err = _import(capsys, str(file), "--db", str(db), "--dry-run")
    assert code == 0, err
    # The path first (a misspelt --db is seen), then what the import would do.
    assert out.startswith(f"There is no database at {db} yet: the import will make it.\n"), out
    assert "\nDry run, nothing written. Would import: 1 added" in out, out
    assert not db.exists()
    code, out, err = _import(capsys, str(file), "--db", str(db))
    assert code == 0, err
    assert out.startswith("Imported: 1 added"), out
    # The same dry run with the database there: no note.
    code, out, err = _import(capsys, str(file), "--db", str(db), "--dry-run")
    assert out.startswith("Dry run, nothing written. Would import: 0 added"), out
    assert "no database" not in out, out


def test_a_refused_first_import_makes_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "Every problem on stderr, exit 1, nothing written" (README), but a refused import where
    there was no database yet left the new, empty database behind (made before the file was
    checked): a misspelt `--db` left a file. Now a first import checks the file first."""
    db, file = tmp_path / "g.db", tmp_path / "twice.toml"
    file.write_text(TWICE)
    code, out, err = _import(capsys, str(file), "--db", str(db))
    assert code == 1, out
    assert "is already a name of “Zorblax” on line 1 of this file" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["twice.toml"]
