"""Task twins77's what-if: a change to the asked-as phrasings (`data/asked-as/*.toml`): the lines
sharing a run of 8 words with a test file's row taken out, and lines for the losing side of
dev30/dev31's near twins and for the probes ask76/desc76 moved, measured on every relevance row
of every slice: each row searched with main's data (`--before`, default /work/main/data) and
with this branch's (`--after`, default the bundled data; a copy of the data folder at one commit
measures one step). A data change cannot be switched off in one
index, so two indexes are built; rows whose outcome differs are counted, tuning ones printed,
held-out ones per slice only (bench/step_whatif.py's outcomes).

    OPENBLAS_NUM_THREADS=1 python bench/twins77_rows_changed.py [--before DIR] [--after DIR]
        [--slices dev30,test39]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bench.step_whatif import outcome as card_outcome
from bot.glossary import bundled_data_dir, load_glossary
from bot.search import SearchIndex


def outcome(case, result):  # type: ignore[no-untyped-def]
    """bench/step_whatif.py's outcome, a wrong card with the right entry among its first three
    offers marked "+3" (the report's card/3 counts it)."""
    what = card_outcome(case, result)
    if what == "wrong" and any(case.accepts(s.id) for s in result.suggestions[:3]):
        return "wrong+3"
    return what


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="/work/main/data", help="main's data folder")
    parser.add_argument("--after", default="", help="this branch's data folder (default: bundled)")
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    args = parser.parse_args()
    only = set(filter(None, args.slices.split(",")))
    before = SearchIndex.build(load_glossary([Path(args.before)]))
    after = SearchIndex.build(
        load_glossary([Path(args.after) if args.after else bundled_data_dir()])
    )
    cases = [c for c in every_case() if not only or c.slice in only]
    print("rows", len(cases), flush=True)
    changed: Counter[tuple[str, str, str]] = Counter()
    totals: dict[str, Counter[str]] = {}
    for case in cases:
        plain, ruled = before.search(case.query), after.search(case.query)
        was, now = outcome(case, plain), outcome(case, ruled)
        group = "tuning" if shown_row_by_row(case.slice) else "held"
        for side, what in (("before", was), ("after", now)):
            totals.setdefault(f"{group} {side}", Counter())[what] += 1
        if was == now:
            continue
        if shown_row_by_row(case.slice):
            card = ruled.entry.id if ruled.entry else None
            print(
                "tuning",
                case.slice,
                case.kind,
                repr(case.query),
                case.expected,
                was,
                "->",
                now,
                card,
            )
        changed[(case.slice, was, now)] += 1  # held out: per-slice totals only
    for key, count in sorted(changed.items()):
        print(*key, count)
    for name, c in sorted(totals.items()):
        print(name, dict(sorted(c.items())))


if __name__ == "__main__":
    main()
