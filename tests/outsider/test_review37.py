"""Review of this session's changes (tests/outsider/PLAN.md, review37): links in what members
write, the reply hint, the members' DM cap, `/stats`' lists, restore's numbering, a database
setting that names no file.

The search index on the bundled glossary, the real bot on the fake Discord, and `glossary-bot`
on real SQLite files."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.glossary.links import without_links
from tests.discord_app.test_member_searches import STUCK

from .test_review36 import _bundled


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("see <https://a.example/>https://b.example/rag", []),
        ("see <https://a.example/>www.b.example/rag", []),
        ("<https://a.example/>https://b.example/kv-cache and RAG", ["rag"]),
        ("<https://a.example/>RAG.https://b.example/rag", ["rag"]),
    ],
)
def test_a_link_right_after_a_bracketed_link_is_blanked_too(text: str, terms: list[str]) -> None:
    """R2: a link in Discord's angle brackets ends at its ">" (review36 V4 kept what follows as
    words), but the pattern's match ran on to the next space, so a second link written right
    after the ">" was never matched: its address was read for terms ("rag" in its path listed
    by Explain terms as RAG)."""
    named = [m.entry_id for m in _bundled().find_named_terms(text)]
    assert named == terms, named
    assert "example" not in without_links(text)


_CHAINED = ["<https://x>" * 400_000, "<www.x>" * 600_000, "https://x>" * 400_000, "<a>" * 1_300_000]


@pytest.mark.parametrize("chained", range(len(_CHAINED)))
def test_links_after_brackets_are_read_once(chained: int) -> None:
    """R3 (R2's fix): reading on after each ">" must not scan the rest of the run again for
    each link, as a match running on to the next space would (a first draft of R2's fix took
    0.15 s on 44,000 characters of "<https://x>", 3.2 s on 220,000). 4 million characters in a
    process of its own, which a linear reading does in about a second and the square one in
    some twenty minutes: STUCK bounds the hang only."""
    code = (
        "from tests.outsider.test_review37 import _CHAINED; "
        "from bot.glossary.links import without_links; "
        f"text = _CHAINED[{chained}]; "
        "assert len(without_links(text)) == len(text); print('done')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=STUCK * 3, check=False
    )
    assert done.stdout.strip() == "done", done
