"""Task which62: what its list readings change on the tuning slices (`SearchIndex.
_listed_kind_carded`: "which <kind> ..." over a list; `query.opening_list`: a list of commas alone
opening the text). Every tuning row that writes a list (`query.alternatives` or `opening_list`; no
other row can change) is searched as the branch reads it and with both readings stubbed (first61's
rule as it was); the rows whose answer differs are listed with both answers and the verdict
(right / wrong / offered / none) of each.

    OPENBLAS_NUM_THREADS=1 python bench/which62_rows.py [--all]

`--all` lists every such row, changed or not. Held-out slices are never read
(`relevance_report.HELD_OUT`)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.first61_rows import shown, verdict  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.query import alternatives, opening_list  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402


def main() -> int:
    every = "--all" in sys.argv[1:]
    index = SearchIndex.build(load_glossary(), semantic=True)
    kind_rule = SearchIndex._listed_kind_carded
    moves: Counter[tuple[str, str]] = Counter()
    looked = 0
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice in HELD_OUT:
                continue
            if not alternatives(case.query) and opening_list(case.query) is None:
                continue
            looked += 1
            with_rule = index.search(case.query)
            SearchIndex._listed_kind_carded = lambda self, result, *_: result  # type: ignore[method-assign]
            index_module.opening_list = lambda _: None  # type: ignore[assignment]
            try:
                without = index.search(case.query)
            finally:
                SearchIndex._listed_kind_carded = kind_rule  # type: ignore[method-assign]
                index_module.opening_list = opening_list
            before, after = verdict(without, case), verdict(with_rule, case)
            changed = shown(without) != shown(with_rule)
            if changed:
                moves[(before, after)] += 1
            if changed or every:
                mark = "*" if changed else " "
                print(
                    f"{mark}{case.slice}\t{case.kind}\t{case.query[:110]!r}\texpected={case.expected}"
                )
                print(
                    f"    first61: {shown(without)} ({before})  which62: {shown(with_rule)} ({after})"
                )
    print(f"{looked} tuning rows write a list; changed: {dict(moves)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
