"""readme51: what a glossary maintainer meets following README, run as they run it.

The installed `glossary-bot`, in a folder with no `.env`. A folder of one's own (README's
Kinds paragraph: `my-glossary/kinds/mine.toml` beside `my-glossary/mine.toml`) whose glossary
file does not parse: `check` counts the references to its entries in one line, which said
"1 references to entries … name no entry" for the one kind.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GLOSSARY_BOT = Path(sys.executable).with_name("glossary-bot")

ENTRY = """\
[[entries]]
id = "zorblax-cache"
title = "Zorblax Cache"
category = "Inference & Operations"
definition = "A made-up cache that keeps zorblax states between requests."
"""


def _check(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GLOSSARY_", "DISCORD_"))}
    return subprocess.run(
        [str(GLOSSARY_BOT), "check", *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _folder(tmp_path: Path, entry: str, kinds: str) -> Path:
    mine = tmp_path / "my-glossary"
    (mine / "kinds").mkdir(parents=True)
    (mine / "mine.toml").write_text(entry, encoding="utf-8")
    (mine / "kinds" / "mine.toml").write_text(kinds, encoding="utf-8")
    return mine


def test_one_reference_to_an_unread_files_entry_is_counted_in_the_singular(
    tmp_path: Path,
) -> None:
    mine = _folder(tmp_path, ENTRY + "title = \n", 'zorblax-cache = "method"\n')
    done = _check(tmp_path, str(mine))
    assert done.returncode == 1
    lines = [line for line in done.stdout.splitlines() if "to entries" in line]
    assert len(lines) == 1, done.stdout
    assert (
        ": error: 1 reference to entries (kinds, asked-as tables, related ids) names no "
        in lines[0]
    )


def test_two_references_are_counted_in_the_plural(tmp_path: Path) -> None:
    second = ENTRY.replace("zorblax-cache", "zorblax-pool").replace("Cache", "Pool")
    kinds = 'zorblax-cache = "method"\nzorblax-pool = "method"\n'
    mine = _folder(tmp_path, ENTRY + second + "title = \n", kinds)
    done = _check(tmp_path, str(mine))
    assert done.returncode == 1
    assert ": error: 2 references to entries (kinds, asked-as tables, related ids) name no " in (
        done.stdout
    )
