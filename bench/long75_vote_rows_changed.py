"""The what-if of `SearchIndex._voting_clauses` reading past the first `MAX_QUERY` characters
(task long75; tried and not kept, bench/results/semantic.md "long75"), through
bench/step_whatif.py: a long message's clauses read over its first `READ` characters (at most
`MOST`), and with `--guard` a name in an asking clause anywhere read stopping the vote for a text
longer than `MAX_QUERY` too. It moves only texts longer than `MAX_QUERY` as typed, so only those
rows are searched, with the tried step (`read_past_cut`) and with main's (long74's, `as_main`).

    OPENBLAS_NUM_THREADS=1 python bench/long75_vote_rows_changed.py [--guard] [--slices ...]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.search import SearchIndex
from bot.search.fusion import CLAUSED_CHARS
from bot.search.index import MAX_QUERY, NamesIn, _without_names
from bot.search.query import clauses_asking, without_chat_markup


def as_main(
    index: SearchIndex,
    query: str,
    normalized: str,
    written: Sequence[tuple[int, int]],
    names_in: NamesIn,
) -> list[str]:
    """`_voting_clauses` as main has it (long74's: the first `MAX_QUERY` characters)."""
    if len(normalized) < CLAUSED_CHARS:
        return []
    read = clauses_asking(without_chat_markup(query[:MAX_QUERY]))
    if written:
        named = [asks for clause, asks in read if names_in(clause)]
        if any(named):
            return []
    phrases = [_without_names(clause, names_in(clause)) for clause, _ in read]
    phrases = [phrase for phrase in phrases if phrase]
    return phrases if len(phrases) > 1 else []


READ = 600
MOST = 16
GUARD = "--guard" in sys.argv


def read_past_cut(
    index: SearchIndex,
    query: str,
    normalized: str,
    written: Sequence[tuple[int, int]],
    names_in: NamesIn,
) -> list[str]:
    """`as_main` with the clauses read over the first `READ` characters, at most `MOST`."""
    if len(normalized) < CLAUSED_CHARS:
        return []
    read = clauses_asking(without_chat_markup(query[:READ]))[:MOST]
    if written or (GUARD and len(query) > MAX_QUERY):
        named = [asks for clause, asks in read if names_in(clause)]
        if any(named):
            return []
    phrases = [_without_names(clause, names_in(clause)) for clause, _ in read]
    phrases = [phrase for phrase in phrases if phrase]
    return phrases if len(phrases) > 1 else []


if __name__ == "__main__":
    if GUARD:
        sys.argv.remove("--guard")
    SearchIndex._voting_clauses = read_past_cut  # type: ignore[method-assign]
    main("_voting_clauses", re.compile(rf"(?s).{{{MAX_QUERY + 1},}}"), as_main)
