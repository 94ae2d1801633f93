"""Issue 14: no SQL text outside the backend modules. The store's SQL lives in the SQLite and
PostgreSQL backends, their migrations and the portable queries both run; every other module
of the bot talks to the database through `Store` only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
# Where SQL may be written.
HOMES = [BOT / "storage" / part for part in ("sqlite", "postgres", "queries", "migrations")]
# Statements and PostgreSQL functions as the bot writes them (keywords in capitals).
SQL = re.compile(
    r"\b(SELECT\s|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|SCHEMA)"
    r"|ALTER\s+TABLE|DROP\s+(TABLE|SCHEMA)|PRAGMA\s|BEGIN\s+IMMEDIATE|pg_\w+\()"
)


def sql_outside_homes() -> list[str]:
    found = []
    for path in sorted(BOT.rglob("*.py")):
        if any(path.is_relative_to(home) for home in HOMES):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and SQL.search(text):
                found.append(f"{path.relative_to(BOT)}:{node.lineno}: {text[:60]!r}")
    return found


def test_the_pattern_finds_sql_as_the_bot_writes_it() -> None:
    for text in (
        "SELECT count(*) FROM lookups",
        "INSERT INTO aliases (scope) VALUES (?)",
        "UPDATE glossary_bot_schema SET version = 2",
        "DELETE FROM misses WHERE scope = ?",
        "PRAGMA journal_mode = DELETE",
        "SELECT pg_advisory_xact_lock(1)",
    ):
        assert SQL.search(text), text
    for text in ("Select a term", "delete the alias", "update: 3 aliases", "Created"):
        assert not SQL.search(text), text


def test_no_sql_outside_the_backend_modules() -> None:
    assert sql_outside_homes() == []
