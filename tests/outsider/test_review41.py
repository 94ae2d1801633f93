"""Review of this session's merges (tests/outsider/PLAN.md, "Review of this session's merges
(review41)"). Real SQLite files, the real CLI; the real bot against the fake Discord."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.resilience.botproc import glossary_bot_waited

from .test_readme35 import CLI_ENV, _aliases, _database_with_alias


def test_restore_leaves_a_copy_kept_by_hand_beside_the_numbered_ones(tmp_path: Path) -> None:
    """A1: restore's pruning took every file named `….before-restore.N-<anything>` for copy N's
    log, so a copy an operator kept by hand under such a name (`….before-restore.1-good`, the
    database before a wrong restore) was removed with copy 1, silently (only databases are
    named). Now only SQLite's own companions of a copy (-wal, -journal, -shm) go with it."""
    db, backup = tmp_path / "glossary-bot.db", tmp_path / "a.db"
    _database_with_alias(tmp_path, db, "qq live")
    _database_with_alias(tmp_path, backup, "qq backup")
    kept = Path(f"{db}.before-restore")

    def restore() -> str:
        status, output = glossary_bot_waited(
            CLI_ENV, tmp_path, "restore", str(backup), "--db", str(db)
        )
        assert status == 0, output
        return output

    for _ in range(2):  # .before-restore and .1: the live database is .1 now
        restore()
    assert _aliases(tmp_path, Path(f"{kept}.1")) == ["qq live"]
    by_hand = Path(f"{kept}.1-good")
    shutil.copy(f"{kept}.1", by_hand)
    for _ in range(3):  # .2, .3, .4 made: .1 removed
        output = restore()
    assert (
        f"removed the oldest copies earlier restores kept (3 are kept beside the one just made): {kept}.1"
        in output
    ), output
    assert not Path(f"{kept}.1").exists()
    assert by_hand.exists(), sorted(p.name for p in tmp_path.iterdir())
    assert _aliases(tmp_path, by_hand) == ["qq live"]
    assert f"the copy an earlier restore kept is now {kept}.4" in output  # its number not taken
