"""The what-if of `SearchIndex._voting_clauses` (task long74), through bench/step_whatif.py: which
clauses of a long message vote.

    OPENBLAS_NUM_THREADS=1 python bench/long74_rows_changed.py [--slices ...]

main's step (`as_main`: a text of `CLAUSED_CHARS` normalised characters or more that writes no
name, all its clauses) against the checkout's. It moves only texts that long: only rows of
`CLAUSED_CHARS` less ten characters as typed are searched (normalising never lengthens a text by
ten)."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.search import SearchIndex
from bot.search.fusion import CLAUSED_CHARS
from bot.search.index import MAX_QUERY, NamesIn
from bot.search.query import clauses_of, without_chat_markup


def as_main(
    index: SearchIndex, query: str, normalized: str, written: Sequence[object], names_in: NamesIn
) -> list[str]:
    """`_voting_clauses` as main has it (before long74)."""
    if len(normalized) < CLAUSED_CHARS or written:
        return []
    phrases = clauses_of(without_chat_markup(query[:MAX_QUERY]))
    return phrases if len(phrases) > 1 else []


if __name__ == "__main__":
    main("_voting_clauses", re.compile(rf"(?s).{{{CLAUSED_CHARS - 10},}}"), as_main)
