"""The what-if of `SearchIndex._voting_clauses` (task long74), through bench/step_whatif.py: which
clauses of a long message vote.

    OPENBLAS_NUM_THREADS=1 python bench/long74_rows_changed.py [--slices ...]
        the names' guard: main's step (`as_main`: a text of `CLAUSED_CHARS` normalised
        characters or more that writes no name, all its clauses) against the checkout's, the
        floor left out (at `CLAUSED_CHARS`)
    ... --floor [--short-cosine 0.5] [--slices ...]
        the floor: the checkout's step against it with the floor at `CLAUSED_CHARS` for every
        text (`without_floor`); `--short-cosine` sets `CLAUSED_SHORT_AGREED_COSINE`

The guard moves only texts of `CLAUSED_CHARS`, the floor only texts of `CLAUSED_SHORT_CHARS`:
only rows that long as typed, less ten characters, are searched (normalising never lengthens a
text by ten)."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.search import SearchIndex, fusion, index
from bot.search.fusion import CLAUSED_CHARS, CLAUSED_SHORT_CHARS
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


checked_out = SearchIndex._voting_clauses


def without_floor(
    index: SearchIndex, query: str, normalized: str, written: Sequence[object], names_in: NamesIn
) -> list[str]:
    """The checkout's `_voting_clauses` with no text under `CLAUSED_CHARS` read by its clauses."""
    if len(normalized) < CLAUSED_CHARS:
        return []
    return checked_out(index, query, normalized, written, names_in)  # type: ignore[arg-type]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--floor", action="store_true")
    parser.add_argument("--short-cosine", type=float, default=None)
    ours, sys.argv[1:] = parser.parse_known_args()
    if ours.short_cosine is not None:
        fusion.CLAUSED_SHORT_AGREED_COSINE = ours.short_cosine
    if ours.floor:
        main("_voting_clauses", re.compile(rf"(?s).{{{CLAUSED_SHORT_CHARS - 10},}}"), without_floor)
    else:  # the guard alone: no floor under CLAUSED_CHARS on either side
        index.CLAUSED_SHORT_CHARS = CLAUSED_CHARS
        main("_voting_clauses", re.compile(rf"(?s).{{{CLAUSED_CHARS - 10},}}"), as_main)
