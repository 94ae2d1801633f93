"""The long commands as an operator runs them: progress on a terminal (check, aliases import,
backup, migrate-db), none through a pipe or with --quiet; `stats --chart` writes the /stats picture."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.cards.chart import BARS, SIZE
from bot.progress import CLEAR_LINE
from bot.storage import Store

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], cwd: Path, *, terminal: bool) -> tuple[int, str, str]:
    """glossary-bot ARGS with stderr on a pseudo-terminal (or a pipe): (code, stdout, stderr)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "GLOSSARY_"))}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "bot.cli", *args]
    if not terminal:
        done = subprocess.run(
            command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120
        )
        return done.returncode, done.stdout, done.stderr
    leader, follower = os.openpty()
    try:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=follower, text=True
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the command closed the terminal (exited)
                break
            if not chunk:
                break
            chunks.append(chunk)
        stdout, _ = process.communicate(timeout=120)
    finally:
        os.close(leader)
    return process.returncode, stdout, b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "ops.db"

    async def fill() -> None:
        store = await Store.open(path, flush_interval=None)
        for term, n in (("kv-cache", 5), ("rag", 2)):
            for _ in range(n):
                store.record_lookup(1, term)
        await store.close()

    asyncio.run(fill())
    return path


def test_check_shows_its_stages_on_a_terminal_only(tmp_path: Path) -> None:
    code, out, err = run(["check"], tmp_path, terminal=True)
    assert code == 0
    assert CLEAR_LINE + "check: checking " in err
    assert err.endswith(CLEAR_LINE)  # the progress line is wiped when the work ends
    assert out.rstrip().endswith("0 error(s), 0 warning(s)")  # the report is on stdout
    code, out, err = run(["check"], tmp_path, terminal=False)
    assert code == 0
    assert err == ""
    assert out.rstrip().endswith("0 error(s), 0 warning(s)")


def test_import_shows_progress_and_keeps_its_error_lines_whole(
    tmp_path: Path, database: Path
) -> None:
    # Over four servers (one server may hold 1,000 aliases); past a thousand, so the counts
    # are shown with their separator. (3,000 took minutes of CI: the import's checks grow
    # faster than the file.)
    items = [
        {"guild_id": 1 + i % 4, "alias": f"ops alias {i}", "entry_id": "rag"} for i in range(1200)
    ]
    items[600] = {"guild_id": 1, "alias": "x", "entry_id": "no-such-entry"}
    (tmp_path / "aliases.json").write_text(json.dumps(items))
    args = ["aliases", "import", "aliases.json", "--db", str(database)]
    code, out, err = run(args, tmp_path, terminal=True)
    assert code == 1  # one refused
    assert "import: checking aliases: " in err
    assert "/1,200 (" in err
    assert "import: writing 1,200 aliases" in err  # checked against each server as written
    (error_line,) = [line for line in err.split("\n") if "item 601" in line]
    # What the terminal shows on that line: the progress wiped, then the error in full.
    assert error_line.rsplit(CLEAR_LINE, 1)[-1].startswith("item 601: There is no glossary")
    assert "added 1,199" in out

    code, _, err = run([*args, "--quiet"], tmp_path, terminal=True)
    assert "import:" not in err
    assert "item 601: " in err  # refusals are still reported


def test_backup_shows_what_it_copies_on_a_terminal(tmp_path: Path, database: Path) -> None:
    code, out, err = run(["backup", "copy.db", "--db", str(database)], tmp_path, terminal=True)
    assert code == 0
    assert re.search(r"backup: copying \d+ KiB…", err), err
    assert "backed up" in out
    assert (tmp_path / "copy.db").is_file()
    code, out, err = run(["backup", "copy2.db", "--db", str(database)], tmp_path, terminal=False)
    assert code == 0
    assert err == ""


def test_migrate_db_shows_its_stages_on_a_terminal_only(tmp_path: Path, database: Path) -> None:
    args = ["migrate-db", "--from", str(database), "--to", "copy.db"]
    code, out, err = run(args, tmp_path, terminal=True)
    assert code == 0, err
    # The rows copied of all the rows, table by table, then the check.
    for stage in ("reading…", "copying lookups: 0/", "copying misses: ", "checking: "):
        assert CLEAR_LINE + "migrate-db: " + stage in err
    assert err.endswith(CLEAR_LINE)  # wiped at the end: the report alone stays
    assert "7 lookups" in out

    # Onto a database that now holds data: refused, and the error line is not drawn over.
    code, out, err = run(args, tmp_path, terminal=True)
    assert code == 1
    error = err.rsplit(CLEAR_LINE, 1)[-1]
    assert error.startswith("glossary-bot: error: ")
    assert "--force" in error

    code, out, err = run([*args[:-1], "copy2.db"], tmp_path, terminal=False)
    assert (code, err) == (0, "")
    code, out, err = run([*args[:-1], "copy3.db", "--quiet"], tmp_path, terminal=True)
    assert (code, err) == (0, "")
    assert "7 lookups" in out


def test_stats_chart_writes_the_picture(tmp_path: Path, database: Path) -> None:
    code, out, err = run(
        ["stats", "--db", str(database), "--period", "week", "--chart", "week.png"],
        tmp_path,
        terminal=False,
    )
    assert code == 0, err
    assert "Lookups: 7" in out
    image = Image.open(io.BytesIO((tmp_path / "week.png").read_bytes()))
    assert image.format == "PNG"
    assert image.size == SIZE
    assert any(c == BARS for _, c in image.convert("RGBA").getcolors(SIZE[0] * SIZE[1]) or [])

    code, _, err = run(
        ["stats", "--db", str(database), "--chart", "no/such/dir/x.png"], tmp_path, terminal=False
    )
    assert code == 1
    assert err.strip().startswith(
        "glossary-bot: error: cannot write the chart to no/such/dir/x.png"
    )
    assert len(err.strip().splitlines()) == 1
