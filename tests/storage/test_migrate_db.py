"""The operators' database commands on either backend, run as an operator runs them:
`migrate-db` copies a SQLite file into the other database, `stats`, `aliases export` and `backup`
follow DATABASE_URL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import AliasImport
from tests.resilience.botproc import glossary_bot_run_here

from .conftest import Databases, FakeClock, OpenStore, names_in

ROOT = Path(__file__).resolve().parents[2]


def glossary_bot_env(**settings: str) -> dict[str, str]:
    """This environment without the developer's database settings, the checkout importable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    return {**env, "PYTHONPATH": str(ROOT), **settings}


def glossary_bot(*args: str, cwd: Path = ROOT, **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=cwd,
        env=glossary_bot_env(**settings),
        capture_output=True,
        text=True,
        timeout=120,
    )


def migrate_db(*args: str) -> subprocess.CompletedProcess[str]:
    return glossary_bot("migrate-db", *args)


def glossary_bot_here(
    *args: str, cwd: Path = ROOT, **settings: str
) -> subprocess.CompletedProcess[str]:
    """`glossary_bot` through `bot.cli.main` in this process (`glossary_bot_run_here`: the same
    environment and folder, what a bare process prints on stderr included), where the command's
    answer is the point, not its process (a process each only imported the bot again: ~1 s of
    CPU). The copy in a process of its own: the first test here, and test_round10."""
    return glossary_bot_run_here(glossary_bot_env(**settings), cwd, *args)


async def test_migrate_db_copies_refuses_a_second_time_and_adds_when_forced(
    open_any: OpenStore, location: str, tmp_path: Path, clock: FakeClock
) -> None:
    source_path = tmp_path / "old.db"
    source = await open_any(source_path)
    for i in range(40):
        source.record_lookup(i % 4, f"entry-{i % 5}")
    source.record_miss(2, "zorblax")
    await source.import_aliases([AliasImport(2, "kvc", "KVC", "kv-cache")])
    await source.close()

    done = migrate_db("--from", str(source_path), "--to", location)
    assert done.returncode == 0, done.stderr
    assert "40 lookups" in done.stdout
    assert "(checked)" in done.stdout
    assert "glossary:glossary@" not in done.stdout + done.stderr
    target = await open_any()
    assert (await target.stats(None)).total_lookups == 40
    assert await target.aliases(2) == {"kvc": "kv-cache"}
    assert [m.query for m in await target.top_misses(2)] == ["zorblax"]

    again = migrate_db("--from", str(source_path), "--to", location)
    assert again.returncode == 1
    assert again.stderr.count("\n") == 1
    assert "--force" in again.stderr
    forced = migrate_db("--from", str(source_path), "--to", location, "--force")
    assert forced.returncode == 0, forced.stderr
    assert (await target.stats(None)).total_lookups == 80


async def test_migrate_db_bad_input_is_one_line(open_store: OpenStore, tmp_path: Path) -> None:
    good = tmp_path / "good.db"
    await (await open_store(good)).close()
    cases = [
        ("--from", str(tmp_path / "missing.db"), "--to", str(tmp_path / "x.db")),
        ("--from", "postgresql://a@127.0.0.1/b", "--to", str(tmp_path / "x.db")),
    ]
    (tmp_path / "junk.db").write_bytes(b"not sqlite" * 100)
    cases.append(("--from", str(tmp_path / "junk.db"), "--to", str(tmp_path / "y.db")))
    cases.append(("--from", str(good), "--to", "postgresql://nobody:secret@127.0.0.1:1/x"))
    for case in cases:
        done = glossary_bot_here("migrate-db", *case)
        assert done.returncode == 1, (case, done.stderr)
        assert done.stderr.count("\n") == 1, (case, done.stderr)
        assert "Traceback" not in done.stderr
        assert "secret" not in done.stderr


@pytest.mark.parametrize(
    "target", ["mysql://u:secret@127.0.0.1/db", "postgresq://u:secret@127.0.0.1/db", "http://x/y"]
)
async def test_migrate_db_to_a_url_that_is_not_postgresql_says_so(
    open_store: OpenStore, tmp_path: Path, target: str
) -> None:
    good = tmp_path / "good.db"
    await (await open_store(good)).close()
    done = glossary_bot_here("migrate-db", "--from", str(good), "--to", target, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("glossary-bot: error: --to "), done.stderr
    assert "postgresql://" in done.stderr
    assert done.stderr.count("\n") == 1
    assert "secret" not in done.stderr
    assert names_in(tmp_path) == ["good.db"]  # nothing made


async def test_stats_export_and_backup_follow_database_url(
    open_any: OpenStore, databases: Databases, location: str, tmp_path: Path
) -> None:
    store = await open_any()
    for _ in range(3):
        store.record_lookup(5, "rag")
    await store.import_aliases([AliasImport(5, "kvc", "KVC", "kv-cache")])
    await store.close()
    if databases.backend == "sqlite":
        settings = {"DATABASE_PATH": location}
    else:  # DATABASE_PATH names nothing: the URL wins
        settings = {"DATABASE_URL": location, "DATABASE_PATH": str(tmp_path / "nothing.db")}

    stats = glossary_bot_here("stats", "--json", cwd=tmp_path, **settings)
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["total_lookups"] == 3
    export = glossary_bot_here("aliases", "export", cwd=tmp_path, **settings)
    assert [a["key"] for a in json.loads(export.stdout)] == ["kvc"]

    backup = glossary_bot_here("backup", str(tmp_path / "copy.db"), cwd=tmp_path, **settings)
    if databases.backend == "sqlite":
        assert backup.returncode == 0, backup.stderr
    else:
        assert backup.returncode == 1
        assert backup.stderr.count("\n") == 1
        assert "pg_dump --format=custom" in backup.stderr
        assert "glossary:glossary@" not in backup.stderr
    assert not (tmp_path / "nothing.db").exists()


async def test_migrate_db_copies_the_drafts_of_open_term_forms(
    open_any: OpenStore, location: str, tmp_path: Path
) -> None:
    """left23: the README has a term form open across a restart keep everything (its draft is
    in the database for 7 days), and migrate-db copy everything; but it copied no drafts, so a
    form open across a move (stop the bot, migrate-db, start it on the new database) lost what
    it was opened with. Now the drafts are copied, checked and counted like the rest; a draft's
    age is kept (its 7 days run on)."""
    source_path = tmp_path / "old.db"
    source = await open_any(source_path)
    await source.save_term_draft("n0nce", 2, 77, '{"term": "zorblax"}')
    await source.close()

    done = glossary_bot_here("migrate-db", "--from", str(source_path), "--to", location)
    assert done.returncode == 0, done.stderr
    assert "0 suggestions, 1 form draft; " in done.stdout, done.stdout
    target = await open_any()
    assert await target.term_draft("n0nce", 2, 77) == '{"term": "zorblax"}'
    assert await target.term_draft("n0nce", 2, 78) is None
