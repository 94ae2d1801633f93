"""left61 (PLAN.md, "Leftovers (left61)"): the last stop's leftovers an operator meets on the
command line, and the answers' wording without Discord; each failing on main 5542df1e first."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cards.embed import render_card
from bot.discord_app.identify import IdentifyGate
from bot.glossary import Glossary
from tests.resilience.botproc import CLI_ENV, glossary_bot_run_here


def _letters(n: int) -> str:
    """`n` in letters ("zorb 444" reads as the name RGB444 and is refused)."""
    return "".join("abcdefghij"[int(digit)] for digit in f"{n:03d}")


def test_counts_past_a_thousand_read_1_000_on_the_command_line(tmp_path: Path) -> None:
    """`glossary-bot terms export` said a server's "1000 aliases" are not in the file, and
    `aliases import` "added 1000", where every other message writes "1,000" (the alias cap's
    refusal, the progress line): one format for counts wherever an operator reads them."""
    guild = 42
    lines = [
        {"guild_id": guild, "alias": f"zorb {_letters(n)}", "entry_id": "rag"} for n in range(1000)
    ]
    (tmp_path / "aliases.json").write_text(json.dumps(lines), "utf-8")
    imported = glossary_bot_run_here(
        CLI_ENV, tmp_path, "aliases", "import", "aliases.json", "--db", "g.db", "-q"
    )
    assert imported.returncode == 0, imported.stderr
    assert "added 1,000, already present 0, refused 0" in imported.stdout, imported.stdout
    exported = glossary_bot_run_here(
        CLI_ENV, tmp_path, "terms", "export", "--guild", str(guild), "--db", "g.db"
    )
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.startswith("# "), exported.stdout[:200]  # the file, on stdout
    assert "server 42's 1,000 aliases" in exported.stderr, exported.stderr


def test_a_card_looked_up_a_thousand_times_says_1_000(glossary: Glossary) -> None:
    """A card's footer counted "looked up 1234 times here"; `/stats` says "1,234"."""
    footer = render_card(glossary["rag"], glossary, lookups=1234).footer.text
    assert footer is not None
    assert "looked up 1,234 times here" in footer, footer


async def test_a_lone_process_identifies_its_shards_by_bucket() -> None:
    """A process running several shards alone (no shared database) took discord.py's pacing, 5
    s between any two IDENTIFYs, whatever `max_concurrency` Discord gave; now it takes turns
    by bucket in memory, as processes do through PostgreSQL: shards of different buckets at
    once, one of a bucket still held waits for it (the window is an hour here: nothing waits
    on the clock; the gate's close at a stop ends the wait)."""
    gate = IdentifyGate(None, window=3600.0, max_concurrency=2)
    await gate.wait_turn(0)
    await gate.wait_turn(1)  # another bucket: at once
    same_bucket = asyncio.create_task(gate.wait_turn(2))
    for _ in range(20):  # the loop turns; the bucket stays held for its window
        await asyncio.sleep(0)
    assert not same_bucket.done()
    gate.close()
    with pytest.raises(asyncio.CancelledError):
        await same_bucket
