"""Task long75, step 2: the tuning slices' long rows (250+ characters as typed) that miss or get a
wrong card, by cause. Tuning rows only (`shown_row_by_row`); held-out rows are never read.

    OPENBLAS_NUM_THREADS=1 python bench/long75_causes.py [--rows]

Each long on-topic row's outcome (right / wrong / no card, its entry among the first three
offers or not) by: whether it is longer than the `MAX_QUERY` characters the search reads, whether
it writes a name (the fusion's `written`), whether the clause vote ran (`claused`), and where the
meaning ranks the expected entry (first, 2-3, lower or nowhere)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bench.step_whatif import outcome
from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search.index import MAX_QUERY
from bot.search.relevance import OFF_TOPIC_KINDS

LONG = 250


def main() -> None:
    rows = "--rows" in sys.argv
    index = SearchIndex.build(load_glossary())
    table: Counter[tuple[str, ...]] = Counter()
    totals: Counter[str] = Counter()
    for case in every_case():
        if not shown_row_by_row(case.slice) or len(case.query) < LONG:
            continue
        if case.kind in OFF_TOPIC_KINDS or case.expected is None:
            continue
        result = index.search(case.query)
        what = outcome(case, result)
        totals[what] += 1
        fused = result.fused
        cut = "past-cut" if len(case.query) > MAX_QUERY else "in-cut"
        if fused is None:
            key = (cut, "no-meaning", "-", "-")
        else:
            rank = next(
                (
                    at
                    for at, (pos, _) in enumerate(fused.similar)
                    if case.accepts(index.entries[pos].id)
                ),
                None,
            )
            where = "first" if rank == 0 else "2-3" if rank is not None and rank < 3 else "lower"
            key = (
                cut,
                "named" if fused.written else "unnamed",
                "vote" if fused.claused else "whole",
                where,
            )
        table[(*key, what)] += 1
        if rows and what != "right":
            card = result.entry.id if result.entry else "-"
            print(
                case.slice, len(case.query), key, what, case.expected, card, repr(case.query[:160])
            )
    print("long on-topic tuning rows:", dict(totals))
    print("cut | names | reading | meaning ranks expected | outcome: rows")
    for key, count in sorted(table.items()):
        print(" | ".join(key), count)


if __name__ == "__main__":
    main()
