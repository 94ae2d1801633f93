"""Task first61: what `SearchIndex._first_listed_carded` changes on the tuning slices. Every
tuning row that writes a list of alternatives (`query.alternatives`; no other row can change) is
searched with the rule and with it stubbed; the rows whose answer differs are listed with both
answers and the verdict (right / wrong / offered / none) of each.

    OPENBLAS_NUM_THREADS=1 python bench/first61_rows.py [--all]

`--all` lists every such row, changed or not. Held-out slices are never read
(`relevance_report.HELD_OUT`)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.query import alternatives  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402


def verdict(result: SearchResult, case: Case) -> str:
    if result.entry is not None:
        if case.kind in OFF_TOPIC_KINDS:
            return "off-card"
        return "right" if case.accepts(result.entry.id) else "wrong"
    offered = [s.id for s in result.suggestions[:3]]
    return "offered3" if case.expected in offered else "none/other"


def shown(result: SearchResult) -> str:
    card = result.entry.id if result.entry else "-"
    return f"{card} [{','.join(s.id for s in result.suggestions[:3])}]"


def main() -> int:
    every = "--all" in sys.argv[1:]
    index = SearchIndex.build(load_glossary(), semantic=True)
    rule = SearchIndex._first_listed_carded
    moves: Counter[tuple[str, str]] = Counter()
    looked = 0
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice in HELD_OUT or not alternatives(case.query):
                continue
            looked += 1
            with_rule = index.search(case.query)
            SearchIndex._first_listed_carded = lambda self, result, *_: result  # type: ignore[method-assign]
            try:
                without = index.search(case.query)
            finally:
                SearchIndex._first_listed_carded = rule  # type: ignore[method-assign]
            before, after = verdict(without, case), verdict(with_rule, case)
            changed = shown(without) != shown(with_rule)
            if changed:
                moves[(before, after)] += 1
            if changed or every:
                mark = "*" if changed else " "
                print(
                    f"{mark}{case.slice}\t{case.kind}\t{case.query[:110]!r}\texpected={case.expected}"
                )
                print(f"    main: {shown(without)} ({before})  rule: {shown(with_rule)} ({after})")
    print(f"{looked} tuning rows write a list of alternatives; changed: {dict(moves)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
