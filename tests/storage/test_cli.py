"""The operators' command line: stats, aliases export/import, backup."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.storage import Store
from bot.storage.cli import write_whole

from .conftest import query

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_settings_around(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No developer's .env or DATABASE_PATH: each test says where the database is."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.delenv("GLOSSARY_PATHS", raising=False)


def run(argv: list[str]) -> int:
    return main(argv)


def seed(path: Path) -> None:
    async def fill() -> None:
        store = await Store.open(path, flush_interval=None)
        for _ in range(3):
            store.record_lookup(1, "kv-cache")
        store.record_lookup(2, "lora")
        store.record_miss(1, "kvq")
        await store.add_alias(1, "kvc", "KVC", "kv-cache", actor_id=9)
        await store.close()

    asyncio.run(fill())


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "bot.db"
    seed(path)
    return path


def test_stats_as_text(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "all servers, all time" in out
    assert "Lookups: 4" in out
    assert "kv-cache" in out
    assert "kvq" in out


def test_stats_as_json_for_one_guild(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["stats", "--db", str(db), "--guild", "1", "--period", "week", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["guild_id"] == 1
    assert stats["period"] == "week"
    assert stats["total_lookups"] == 3
    assert stats["top_terms"] == [{"entry_id": "kv-cache", "count": 3}]
    assert [m["query"] for m in stats["top_misses"]] == ["kvq"]
    assert stats["alias_count"] == 1


def test_database_path_from_the_environment(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_PATH", str(db))
    assert run(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total_lookups"] == 4


def test_missing_database_is_an_error_not_a_new_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    absent = tmp_path / "absent.db"
    assert run(["stats", "--db", str(absent)]) == 1
    assert "no database" in capsys.readouterr().err
    assert not absent.exists()


def test_export(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["aliases", "export", "--db", str(db)]) == 0
    (alias,) = json.loads(capsys.readouterr().out)
    assert (alias["guild_id"], alias["alias"], alias["entry_id"]) == (1, "KVC", "kv-cache")
    assert run(["aliases", "export", "--db", str(db), "--guild", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def write_json(path: Path, document: object) -> str:
    path.write_text(json.dumps(document), "utf-8")
    return str(path)


def refused_import(
    file: str, db: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[pytest.CaptureResult[str], list[tuple[object, ...]]]:
    """`aliases import` of a file with refusals: it fails; what it said, and the aliases then."""
    capsys.readouterr()
    assert run(["aliases", "import", file, "--db", str(db)]) == 1
    return capsys.readouterr(), query(db, "SELECT scope, key, entry_id FROM aliases ORDER BY 1, 2")


def test_import_refuses_a_look_alike_of_another_entrys_name(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write_json(
        tmp_path / "aliases.json",
        [
            {"guild_id": 1, "alias": "zorblax", "entry_id": "kv-cache"},
            {"guild_id": 1, "alias": "z\u043erblax", "entry_id": "rag"},  # Cyrillic o
            {"guild_id": 1, "alias": "\u0280\u1d00\u0262", "entry_id": "kv-cache"},  # small caps
            {"guild_id": 1, "alias": "\u043a\u044d\u0448", "entry_id": "kv-cache"},  # a word
        ],
    )
    captured, rows = refused_import(file, db, capsys)
    assert "added 2, already present 0, refused 2" in captured.out
    assert "item 2: “z\u043erblax” looks like “zorblax”, a name of KV Cache" in captured.err
    assert "item 3: “\u0280\u1d00\u0262” looks like “RAG”" in captured.err
    assert rows == [
        (1, "kvc", "kv-cache"),  # the database's own, from before
        (1, "zorblax", "kv-cache"),
        (1, "\u043a\u044d\u0448", "kv-cache"),
    ]


def test_import_reports_each_conflict_and_fails(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A stored alias that search does not otherwise read as any name: the alias rules check an
    # import against the server's stored aliases, as /alias add does, and name its entry.
    first = write_json(
        tmp_path / "first.json", [{"guild_id": 1, "alias": "zorblax", "entry_id": "kv-cache"}]
    )
    assert run(["aliases", "import", first, "--db", str(db)]) == 0
    file = write_json(
        tmp_path / "aliases.json",
        [
            {"guild_id": 1, "alias": "expert soup", "entry_id": "mixture-of-experts"},
            {"guild_id": 1, "alias": "Zorblax", "entry_id": "kv-cache"},  # already there
            {"guild_id": 1, "alias": "zorblax", "entry_id": "quantization"},  # conflict
            {"guild_id": "1", "alias": "x", "entry_id": "y"},  # malformed
            {"guild_id": 2, "alias": "zorblax", "entry_id": "quantization"},  # other server
        ],
    )
    captured, rows = refused_import(file, db, capsys)
    assert "added 2, already present 1, refused 2" in captured.out
    assert "item 3: “zorblax” is already this server's alias for KV Cache" in captured.err
    assert "item 4: guild_id must be a non-negative integer" in captured.err
    assert rows == [
        (1, "expert soup", "mixture-of-experts"),
        (1, "kvc", "kv-cache"),
        (1, "zorblax", "kv-cache"),
        (2, "zorblax", "quantization"),
    ]
    actions = query(db, "SELECT action, actor_id FROM audit_log ORDER BY id")
    assert actions == [("alias_add", 9)] + [("alias_import", 0)] * 3


def test_export_then_import_round_trips(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["aliases", "export", "--db", str(db)]) == 0
    file = tmp_path / "export.json"
    file.write_text(capsys.readouterr().out, "utf-8")
    fresh = tmp_path / "fresh.db"
    assert run(["aliases", "import", str(file), "--db", str(fresh)]) == 0
    assert query(fresh, "SELECT scope, key, text, entry_id FROM aliases") == [
        (1, "kvc", "KVC", "kv-cache")
    ]


def test_import_checks_aliases_as_alias_add_does(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write_json(
        tmp_path / "aliases.json",
        [
            {"guild_id": 1, "alias": "@everyone", "entry_id": "kv-cache"},
            {"guild_id": 1, "alias": "Flash-Attn", "entry_id": "kv-cache"},  # FlashAttention's
            {"guild_id": 1, "alias": "no such entry", "entry_id": "ghost"},
            {"guild_id": 1, "alias": "Kv_Cash", "entry_id": "kv-cache"},
        ],
    )
    assert run(["aliases", "import", file, "--db", str(db)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in err] == ["item 1", "item 2", "item 3"]
    assert "mention" in err[0]
    assert "flash" in err[1].lower()
    assert "ghost" in err[2]
    assert ("kv cash",) in query(db, "SELECT key FROM aliases")


def test_import_of_a_missing_or_non_utf8_file_is_one_plain_line(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seen running the README's commands: a missing file was "[Errno 2] No such file or
    directory: '<the path again>'" and a file in another encoding Python's codec message; now
    worded as `terms import` words them."""
    missing = tmp_path / "nowhere.json"
    assert run(["aliases", "import", str(missing), "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"glossary-bot: error: cannot read {missing}: No such file or directory\n"
    )
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes(
        '[{"guild_id": 1, "alias": "caf\u00e9", "entry_id": "rag"}]'.encode("latin-1")
    )
    assert run(["aliases", "import", str(latin1), "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"glossary-bot: error: cannot read {latin1}: not UTF-8 text (line 1 has a byte that is not "
        "UTF-8): save the file as UTF-8 and import it again.\n"
    )


def test_import_of_a_broken_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("[{", "utf-8")
    assert run(["aliases", "import", str(broken), "--db", str(db)]) == 1
    assert "cannot read" in capsys.readouterr().err
    not_a_list = write_json(tmp_path / "object.json", {"guild_id": 1})
    assert run(["aliases", "import", not_a_list, "--db", str(db)]) == 1
    assert "expected a JSON list" in capsys.readouterr().err


def test_backup(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "copy.db"
    assert run(["backup", str(copy), "--db", str(db)]) == 0
    assert "backed up" in capsys.readouterr().out
    assert query(copy, "PRAGMA integrity_check") == [("ok",)]
    assert query(copy, "SELECT key FROM aliases") == [("kvc",)]
    assert run(["backup", str(db), "--db", str(db)]) == 1
    assert "onto itself" in capsys.readouterr().err


def test_settings_come_from_dot_env_too(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".env").write_text(f"DATABASE_PATH={db}\n", "utf-8")
    for argv in (["stats", "--json"], ["aliases", "export"], ["backup", "copy.db"]):
        assert run(argv) == 0, capsys.readouterr().err
    assert query(tmp_path / "copy.db", "SELECT key FROM aliases") == [("kvc",)]


def test_an_empty_database_path_means_its_default(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_PATH", "")
    db.rename(tmp_path / "glossary-bot.db")
    assert run(["stats", "--json"]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["total_lookups"] == 4


@pytest.mark.parametrize("limit", ["0", "-1", "100000000000000000000", "ten"])
def test_stats_limit_out_of_range_is_one_line(
    db: Path, capsys: pytest.CaptureFixture[str], limit: str
) -> None:
    with pytest.raises(SystemExit) as done:
        run(["stats", "--db", str(db), "--limit", limit])
    assert done.value.code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("glossary-bot stats: error: argument --limit: expected")


def test_backup_into_a_folder_or_a_missing_folder_blames_the_destination(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "some-folder"
    folder.mkdir()
    assert run(["backup", str(folder), "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"glossary-bot: error: cannot write the backup to {folder}: that is a folder; "
        f"give a file name, e.g. {folder / 'glossary-bot-backup.db'}\n"
    )
    assert list(folder.iterdir()) == []
    assert run(["backup", "/nonexistent/dir/x.db", "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        "glossary-bot: error: cannot write the backup to /nonexistent/dir/x.db: "
        "the folder /nonexistent/dir does not exist\n"
    )


def test_backup_into_the_databases_own_folder_suggests_a_name_it_would_take(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """readme35: `backup .` beside glossary-bot.db (the default DATABASE_PATH) suggested
    "e.g. glossary-bot.db", the database's own name, which `backup` then refuses ("onto
    itself"). Taken as suggested, the name must back up."""
    folder = tmp_path
    db = folder / "glossary-bot.db"
    seed(db)
    assert run(["backup", str(folder), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    suggested = Path(err.rstrip("\n").rsplit("e.g. ", 1)[1])
    assert suggested.parent == folder
    assert suggested != db
    assert run(["backup", str(suggested), "--db", str(db)]) == 0
    assert suggested.is_file()


def test_help_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["stats"], ["aliases"], ["aliases", "export"], ["aliases", "import"], ["backup"]):
        with pytest.raises(SystemExit) as done:
            run([*argv, "--help"])
        assert done.value.code == 0
    assert "--db PATH" in capsys.readouterr().out


def test_as_a_separate_process(db: Path, tmp_path: Path) -> None:
    def cli_process(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", *argv],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    stats = cli_process("stats", "--db", str(db), "--json")
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["total_lookups"] == 4
    copy = tmp_path / "copy.db"
    assert cli_process("backup", str(copy), "--db", str(db)).returncode == 0
    assert query(copy, "SELECT count(*) FROM aliases") == [(1,)]


def test_import_checks_aliases_against_the_servers_own_terms(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As `/alias add` in that server: an alias may not take a name of the server's own term,
    and may point at one; another server does not have the term."""
    terms = tmp_path / "terms.md"
    terms.write_text(
        "Our glossary ¶\nWords of our team.\n\n"
        "Zorblax ¶\nThe team's nightly batch job that re-ranks retrieved documents.\n"
    )
    importing = ["terms", "import", str(terms), "--guild", "1", "--category", "Fundamentals"]
    assert run([*importing, "--db", str(db)]) == 0
    capsys.readouterr()
    file = write_json(
        tmp_path / "aliases.json",
        [
            {"guild_id": 1, "alias": "zorblax", "entry_id": "kv-cache"},
            {"guild_id": 1, "alias": "nightly rerank", "entry_id": "zorblax"},
            {"guild_id": 2, "alias": "nightly rerank", "entry_id": "zorblax"},
        ],
    )
    assert run(["aliases", "import", file, "--db", str(db)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in err] == ["item 1", "item 3"], err
    assert "Zorblax" in err[0]
    assert "zorblax" in err[1]
    assert ("nightly rerank", "zorblax") in query(db, "SELECT key, entry_id FROM aliases")


def test_import_checks_aliases_against_the_glossary_the_bot_serves(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """GLOSSARY_PATHS names the glossary, as for `run`: its entries are the ones an alias may
    open, and its names the ones an alias may not take."""
    glossary = tmp_path / "ours.toml"
    glossary.write_text(
        '[[entries]]\nid = "zorblax"\ntitle = "Zorblax"\ncategory = "Fundamentals"\n'
        'definition = "The team\'s nightly batch job that re-ranks retrieved documents."\n'
    )
    monkeypatch.setenv("GLOSSARY_PATHS", str(glossary))
    file = write_json(
        tmp_path / "aliases.json",
        [
            {"guild_id": 1, "alias": "kv cash", "entry_id": "kv-cache"},  # not served here
            {"guild_id": 1, "alias": "Zorb-Lax", "entry_id": "zorblax"},  # its name
            {"guild_id": 1, "alias": "nightly rerank", "entry_id": "zorblax"},
        ],
    )
    assert run(["aliases", "import", file, "--db", str(db)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in err] == ["item 1", "item 2"], err
    assert "kv-cache" in err[0]
    assert "Zorblax" in err[1]
    assert ("nightly rerank", "zorblax") in query(db, "SELECT key, entry_id FROM aliases")


def test_import_rechecks_a_server_another_writer_changed_inside_the_write(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Between the import's read and its write another writer adds an alias to server 2 (here a
    trigger does it, as the write takes the aliases' lock, before it reads them: since left61
    the write reads each server's aliases once, at its start, under that lock): server 2's
    lines are checked again inside the write, against that alias and the lines before them."""
    import sqlite3

    with sqlite3.connect(db) as connection:
        connection.execute(
            "CREATE TRIGGER another_writer AFTER UPDATE ON counters "
            "WHEN NEW.name = 'alias_version' AND NOT EXISTS "
            "(SELECT 1 FROM aliases WHERE scope = 2 AND key = 'blip lax') "
            "BEGIN INSERT INTO aliases (scope, key, text, entry_id, added_by, added_at) "
            "VALUES (2, 'blip lax', 'blip lax', 'rag', 99, 0); END"
        )
    file = write_json(
        tmp_path / "aliases.json",
        [
            {"guild_id": 1, "alias": "zorb one", "entry_id": "kv-cache"},
            {"guild_id": 2, "alias": "wibble", "entry_id": "rag"},
            {"guild_id": 2, "alias": "Blip-Laxes", "entry_id": "kv-cache"},  # the other's twin
            {"guild_id": 2, "alias": "wobble", "entry_id": "kv-cache"},
            {"guild_id": 2, "alias": "wibbles", "entry_id": "rag"},  # its own entry: fine
        ],
    )
    assert run(["aliases", "import", file, "--db", str(db)]) == 1
    captured = capsys.readouterr()
    assert [line.split(":")[0] for line in captured.err.splitlines()] == [
        "item 3 (guild 2, alias 'Blip-Laxes')"
    ]
    assert "blip lax" in captured.err
    assert "added 4, already present 0, refused 1" in captured.out
    assert sorted(query(db, "SELECT scope, key, entry_id FROM aliases WHERE scope = 2")) == [
        (2, "blip lax", "rag"),
        (2, "wibble", "rag"),
        (2, "wibbles", "rag"),
        (2, "wobble", "kv-cache"),
    ]


def test_write_whole_replaces_a_file_and_writes_through_a_symlink(tmp_path: Path) -> None:
    """A file is replaced whole; a symlink (`-o /dev/stdout` is one) is written where it points:
    renaming over it replaced the link itself, and the output never reached stdout."""
    target = tmp_path / "real.toml"
    target.write_bytes(b"yesterday")
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    write_whole(link, b"today")
    assert link.is_symlink()
    assert target.read_bytes() == b"today"
    write_whole(target, b"tomorrow")
    assert target.read_bytes() == b"tomorrow"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.toml", "real.toml"]


def test_write_whole_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    """An export its owner made private (0600) stays private when written again: the new file
    renamed into place took the umask's mode."""
    private = tmp_path / "server-terms.toml"
    private.write_bytes(b"yesterday")
    private.chmod(0o600)
    write_whole(private, b"today")
    assert private.read_bytes() == b"today"
    assert private.stat().st_mode & 0o777 == 0o600
