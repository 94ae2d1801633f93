"""The store stands alone: no Discord, no search, and its SQL files travel with the package."""

from __future__ import annotations

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


def test_migrations_are_package_data() -> None:
    migrations = ROOT / "bot" / "storage" / "migrations"
    assert (migrations / "V1__initial.sql").is_file()
    assert (migrations / "__init__.py").is_file()
