"""Small leftovers of round 16 (task left16), each through the real command line or the bot
against the fake Discord, on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

from bot.storage import Store

from .test_round14 import _cli


async def test_an_alias_imported_from_the_command_line_accepts_the_waiting_suggestions(
    tmp_path: Path,
) -> None:
    """A member suggested "QQ Zorbo"; `glossary-bot aliases import` made it the server's alias
    for KV Cache: the suggestion stayed queued, where `terms import` and `/alias add` accept
    it. Now the import accepts it in the database, the term log naming the command line, and
    its line says so (the command line cannot message members)."""
    db = tmp_path / "g.db"
    store = await Store.open(db, flush_interval=None)
    await store.add_suggestion(5, 42, "QQ Zorbo", "What it means, in my words.")
    await store.add_suggestion(6, 42, "QQ Zorbo", "Another server's, left waiting.")
    await store.close()
    alias = [{"guild_id": 5, "alias": "qq zorbo", "entry_id": "kv-cache"}]
    added = _cli(tmp_path, "aliases", "import", "-", "--db", str(db), stdin=json.dumps(alias))
    assert added.returncode == 0, added.stderr
    assert added.stdout.strip().endswith(
        "added 1, already present 0, refused 0\n"
        "Also accepted 1 waiting suggestion of that name; its member was not told "
        "(the command line cannot message members)."
    ), added.stdout
    log = _cli(tmp_path, "terms", "log", "--guild", "5", "--db", str(db))
    assert "an operator (command line) accepted the suggestion “QQ Zorbo”" in log.stdout, log
    store = await Store.open(db, flush_interval=None)
    try:
        assert await store.open_suggestions(5) == []
        assert [s.title for s in await store.open_suggestions(6)] == ["QQ Zorbo"]
    finally:
        await store.close()
    again = _cli(tmp_path, "aliases", "import", "-", "--db", str(db), stdin=json.dumps(alias))
    assert again.stdout.strip() == "added 0, already present 1, refused 0", again.stdout
