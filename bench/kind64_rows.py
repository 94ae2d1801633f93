"""Task kind64: what its readings change on the tuning slices (`SearchIndex._kind_of_examples`: a
kind named before examples of it; `SearchIndex._kind_meant` and a one-entry list in
`_listed_kind_carded`: "which <kind>" lists). Every tuning row that writes a list
(`query.alternatives`, `opening_list`, `kind_examples`; no other row can change) is searched as the
branch reads it and with the readings as which62 left them; the rows whose answer differs are
listed with both answers and the verdict (right / wrong / offered / none) of each.

    OPENBLAS_NUM_THREADS=1 python bench/kind64_rows.py [--all] [--probes]

`--probes` searches tests/search's probe files' texts instead (no verdicts). Held-out slices are
never read (`relevance_report.HELD_OUT`)."""

from __future__ import annotations

import csv
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.first61_rows import shown, verdict  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.query import alternatives, kind_examples, opening_list, which_kind  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402


def which62_kind_carded(
    self: SearchIndex,
    result: SearchResult,
    text: str,
    lists: Sequence[tuple[tuple[str, ...], str, bool]],
    meaning: Callable[[str], SearchResult],
) -> SearchResult:
    """`_listed_kind_carded` as which62 shipped it (a named kind, two listed entries or more)."""
    kinds = [f.entry for f in self._names_in(which_kind(text) or "") if f.start == 0]
    if not kinds:
        return result
    for items, _, opens in lists:
        listed = self._listed(items, whole_first=opens)
        members = [e for e in listed if e != kinds[0]]
        if len(listed) >= 2 and members:
            return self._listed_offered(result, kinds[0], members)
    return result


def as_main(index: SearchIndex, text: str) -> SearchResult:
    rules = SearchIndex._kind_of_examples, SearchIndex._listed_kind_carded
    SearchIndex._kind_of_examples = lambda *_: None  # type: ignore[method-assign]
    SearchIndex._listed_kind_carded = which62_kind_carded  # type: ignore[method-assign]
    try:
        return index.search(text)
    finally:
        SearchIndex._kind_of_examples, SearchIndex._listed_kind_carded = rules  # type: ignore[method-assign]


def lists(text: str) -> bool:
    return bool(alternatives(text) or opening_list(text) or kind_examples(text))


def main() -> int:
    every = "--all" in sys.argv[1:]
    index = SearchIndex.build(load_glossary(), semantic=True)
    if "--probes" in sys.argv[1:]:
        for path in sorted((ROOT / "tests/search").glob("*_probes.tsv")):
            with path.open(encoding="utf-8") as f:
                for row in csv.reader(f, delimiter="\t"):
                    if len(row) < 2 or row[0].startswith("#") or not lists(row[1]):
                        continue
                    now, before = shown(index.search(row[1])), shown(as_main(index, row[1]))
                    if now != before or every:
                        print(f"{path.name}\t{row[0]}\t{row[1][:110]!r}\t{row[2:4]}")
                        print(f"    main: {before}  kind64: {now}")
        return 0
    moves: Counter[tuple[str, str]] = Counter()
    looked = 0
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice in HELD_OUT or not lists(case.query):
                continue
            looked += 1
            with_rule, without = index.search(case.query), as_main(index, case.query)
            before, after = verdict(without, case), verdict(with_rule, case)
            changed = shown(without) != shown(with_rule)
            if changed:
                moves[(before, after)] += 1
            if changed or every:
                mark = "*" if changed else " "
                print(f"{mark}{case.slice}\t{case.kind}\t{case.query[:110]!r}\texp={case.expected}")
                print(
                    f"    main: {shown(without)} ({before})  kind64: {shown(with_rule)} ({after})"
                )
    print(f"{looked} tuning rows write a list; changed: {dict(moves)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
