"""Small leftovers of round 15 (task left15), each through the real command line or the bot
against the fake Discord."""

from __future__ import annotations

import json
from pathlib import Path

from .test_round14 import _cli
from .test_round14_left import ZORBLAX


def test_migrate_db_counts_one_of_a_kind_in_the_singular(tmp_path: Path) -> None:
    """`migrate-db`'s line said "1 server terms", "1 term audit entries", "1 aliases": each
    count now goes with the singular or plural it takes."""
    db, target = str(tmp_path / "g.db"), str(tmp_path / "new.db")
    assert _cli(tmp_path, "terms", "import", "-", "--guild", "5", "--db", db, stdin=ZORBLAX).stdout
    alias = [{"guild_id": 5, "alias": "qq zorbo", "entry_id": "kv-cache"}]
    added = _cli(tmp_path, "aliases", "import", "-", "--db", db, stdin=json.dumps(alias))
    assert added.returncode == 0, added.stderr
    copied = _cli(tmp_path, "migrate-db", "--from", db, "--to", target)
    assert copied.returncode == 0, copied.stderr
    assert (
        f"copied {db} to {target}: 0 lookups, 0 missed queries, 1 alias, 1 alias audit entry, "
        "1 server term, 1 term audit entry, 0 suggestions; "
        f"{target} now holds 0 lookups, 1 alias, 1 server term and 0 suggestions (checked)"
    ) in copied.stdout, copied.stdout
