"""names77's tally: the tuning rows (never a held-out one) whose text writes two entries' names or
more (`SearchIndex.find_named_terms`), the expected entry one of them, searched as the report
does: right / wrong (the card another written name, or not) / no card (right among the first
three offers or not). Prints the rows that do not get their card.

    OPENBLAS_NUM_THREADS=1 python bench/names77_tally.py [--slices dev30,dev31]
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
from bot.search.relevance import OFF_TOPIC_KINDS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default="")
    only = set(filter(None, parser.parse_args().slices.split(",")))
    index = SearchIndex.build(load_glossary())
    tally: Counter[tuple[str, str]] = Counter()
    for case in every_case():
        if not shown_row_by_row(case.slice) or (only and case.slice not in only):
            continue
        if case.kind in OFF_TOPIC_KINDS or case.expected is None:
            continue
        named = list(dict.fromkeys(m.entry.id for m in index.find_named_terms(case.query)))
        if len(named) < 2 or not any(case.accepts(n) for n in named):
            continue
        result = index.search(case.query)
        what = outcome(case, result)
        card = result.entry.id if result.entry else None
        if what == "wrong":
            what = "wrong-written" if card in named else "wrong-other"
        tally[(case.kind, what)] += 1
        if what != "right":
            offers = [s.id for s in result.suggestions[:3]]
            print(
                case.slice,
                case.kind,
                what,
                repr(case.query[:150]),
                "exp",
                case.expected,
                "card",
                card,
                "offers",
                offers,
                "named",
                named,
                flush=True,
            )
    for key, count in sorted(tally.items()):
        print(*key, count)


if __name__ == "__main__":
    main()
