"""An operator's pass (tests/outsider/PLAN.md, "An operator's pass (ops38)"): logs, metrics,
the stats chart and `prune`, tried as an operator runs them.

Through `glossary-bot` in a process of its own, with real SQLite files."""

from __future__ import annotations

from pathlib import Path

from .test_left24 import in_a_read_only_folder


def test_prune_dry_run_reads_a_snapshot_in_a_read_only_folder(tmp_path: Path) -> None:
    """O8: `prune --dry-run` on a bot's file alone in a read-only folder (a snapshot) said
    "the database's folder … is read-only (SQLite needs to create files beside the database)",
    while `stats` and `terms import --dry-run` read such a file through a copy. Now it says
    what would go as well; the folder and the file as they were."""
    folder = tmp_path / "snap"
    command = ("prune", "--older-than", "30", "--dry-run", "--db", "snap/g.db")
    done, before = in_a_read_only_folder(folder, *command)
    assert done.returncode == 0, done
    assert "lookups: would remove 1 hourly lookup count from before" in done.stdout, done.stdout
    assert "(--dry-run: nothing was removed)" in done.stdout, done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before


def test_a_prune_of_a_snapshot_is_refused_in_one_line(tmp_path: Path) -> None:
    """O8: a real prune there is refused in one line, nothing claimed, the file as it was."""
    folder = tmp_path / "snap"
    done, before = in_a_read_only_folder(folder, "prune", "--older-than", "30", "--db", "snap/g.db")
    assert done.returncode == 1, done
    assert done.stdout == "", done.stdout
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"folder {folder} is read-only" in done.stderr, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["g.db"]
    assert (folder / "g.db").read_bytes() == before


def test_a_dry_run_vacuum_of_a_snapshot_is_refused_as_the_vacuum_would_be(
    tmp_path: Path,
) -> None:
    """O8: `prune --dry-run --vacuum` there says the vacuum would be refused, not that it
    would rewrite the file."""
    folder = tmp_path / "snap"
    command = ("prune", "--older-than", "30", "--dry-run", "--vacuum", "--db", "snap/g.db")
    done, before = in_a_read_only_folder(folder, *command)
    assert done.returncode == 1, done
    assert f"folder {folder} is read-only" in done.stderr, done.stderr
    assert (folder / "g.db").read_bytes() == before
