"""The store stands alone: no Discord, no search, and its SQL files travel with the package."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_storage_imports_neither_discord_nor_search() -> None:
    probe = (
        "import sys, bot.storage, bot.storage.cli\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'discord'"
        " or m.startswith('bot.search') or m.startswith('bot.aliases'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == ""


def test_migrations_are_package_data_with_the_same_numbers_on_each_backend() -> None:
    folder = ROOT / "bot" / "storage" / "migrations"
    numbers = {}
    for dialect in ("sqlite", "postgres"):
        # by number, as the migrations run: "V10" sorts before "V2" as text
        names = sorted(
            (p.name for p in (folder / dialect).glob("V*.sql")),
            key=lambda name: int(name[1:].split("__")[0]),
        )
        assert names[0] == "V1__initial.sql"
        numbers[dialect] = [name.split("__")[0] for name in names]
    assert numbers["sqlite"] == numbers["postgres"]
    assert (folder / "__init__.py").is_file()


# SQL belongs to the backends (and the queries both run); nowhere else in the store.
_SQL = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE|PRAGMA)\b")
_SQL_HOMES = ("queries", "sqlite", "postgres", "migrations")


def test_no_sql_outside_the_backend_modules() -> None:
    storage = ROOT / "bot" / "storage"
    offenders = [
        f"{path.relative_to(storage)}: {match.group(0)}"
        for path in storage.rglob("*.py")
        if path.relative_to(storage).parts[0] not in _SQL_HOMES and path.name != "backup.py"
        for match in [_SQL.search(path.read_text("utf-8"))]
        if match
    ]
    assert offenders == []


def test_sqlite_users_never_load_the_postgresql_driver() -> None:
    probe = "import sys, bot.storage\nprint('asyncpg' in sys.modules)\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"
