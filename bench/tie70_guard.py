"""Which rows the "points back" guard of `query.before_the_asking` changes (task tie70): the rows
where `SearchIndex._tied_name_yields` turns a card into an offer without the guard and not with
it. The whole report was run on the rule without the guard; where the guard changes no row of a
slice, that slice's figures hold for the rule with it.

    OPENBLAS_NUM_THREADS=1 python bench/tie70_guard.py

Every slice is searched, held-out ones too, but a held-out row is only counted, never printed:
per slice the rows the guard changes (tuning rows listed with their verdict).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.query import _ASKING_WORD, before_the_asking  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402

# Only a text with "it" or "them" in it can be changed by the guard
_MAY_CHANGE = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)


def unguarded(before: str, after: str) -> bool:
    """`before_the_asking` as the whole report measured it: no "points back" guard."""
    return _ASKING_WORD.search(before) is None and _ASKING_WORD.search(after) is not None


def main() -> int:
    index = SearchIndex.build(load_glossary())
    changed: Counter[str] = Counter()
    read: Counter[str] = Counter()
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if not _MAY_CHANGE.search(case.query):
                continue
            read[case.slice] += 1
            index_module.before_the_asking = before_the_asking
            with_guard = index.search(case.query)
            index_module.before_the_asking = unguarded
            without = index.search(case.query)
            if (with_guard.entry, with_guard.suggestions[:3]) == (
                without.entry,
                without.suggestions[:3],
            ):
                continue
            changed[case.slice] += 1
            if case.slice not in HELD_OUT and case.slice != "calib":
                card = without.entry.id if without.entry else None
                print(
                    f"{case.slice}: {case.query[:100]!r} unguarded card {card}, want {case.expected}"
                )
    for slice_, n in sorted(read.items()):
        print(f"{slice_}: {n} rows read, {changed[slice_]} changed by the guard")
    print(f"total changed: {sum(changed.values())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
