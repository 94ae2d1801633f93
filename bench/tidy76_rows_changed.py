"""The what-if of tidy76's slash reading (`query.typed_core`: two single letters with a slash
between them, "A/B testing", are one name, not the article "a" and "b testing"), through
bench/step_whatif.py's reading of rows: every relevance row writing such a slash is searched with
`typed_core` and with `query_core` alone (main's reading); tuning rows that change are printed,
held-out ones only counted per slice.

    OPENBLAS_NUM_THREADS=1 python bench/tidy76_rows_changed.py [--slices dev27,test35]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bench.step_whatif import outcome
from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search import index as index_module
from bot.search.query import _LETTER_SLASH, query_core, typed_core


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    only = set(filter(None, parser.parse_args().slices.split(",")))
    index = SearchIndex.build(load_glossary())
    cases = [
        c for c in every_case() if (not only or c.slice in only) and _LETTER_SLASH.search(c.query)
    ]
    print("candidate rows", len(cases), flush=True)
    changed: Counter[tuple[str, str, str]] = Counter()
    results = Counter()
    for case in cases:
        index_module.typed_core = typed_core
        ruled = index.search(case.query)
        index_module.typed_core = lambda normalized, typed: query_core(normalized)
        plain = index.search(case.query)
        index_module.typed_core = typed_core
        same = (ruled.entry, ruled.suggestions[:3]) == (plain.entry, plain.suggestions[:3])
        results["same result" if same else "result changed"] += 1
        before, after = outcome(case, plain), outcome(case, ruled)
        if before == after:
            continue
        if shown_row_by_row(case.slice):
            card = plain.entry.id if plain.entry else None
            print("tuning", case.slice, repr(case.query), card, before, "->", after, flush=True)
        changed[(case.slice, before, after)] += 1  # held out: per-slice totals only
    print(dict(results))
    for key, count in sorted(changed.items()):
        print(*key, count)
    held: Counter[str] = Counter()
    for (name, before, after), count in changed.items():
        if not shown_row_by_row(name):
            held[before] -= count
            held[after] += count
    print("held out net:", dict(held))


if __name__ == "__main__":
    main()
