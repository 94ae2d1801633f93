"""The what-if of task desc76's data change (new "asked as" phrasings, `data/asked-as/*.toml`):
a data change moves the meaning of every entry it touches and the description stage's word
statistics for all, so every row of every relevance set is searched, once on main's data
(`--save FILE`) and once on the branch's (`--against FILE`), and tallied per slice as the report
does (right card, on-topic wrong card, off-topic card, right among the card and first three
offers). Tuning rows that changed are printed; held-out slices (and calib) only counted.

    OPENBLAS_NUM_THREADS=1 python bench/desc76_rows_changed.py --save /tmp/main.json     # main
    OPENBLAS_NUM_THREADS=1 python bench/desc76_rows_changed.py --against /tmp/main.json  # branch
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT, every_case  # noqa: E402
from bench.step_whatif import saved_run  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.relevance import Case  # noqa: E402


def outcome(case: Case, result: SearchResult) -> tuple[str, bool]:
    """As bench/long71_rows_changed.py counts a row, from a result already searched."""
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return ("ok" if card is None or case.accepts(card) else "off"), False
    near = any(case.accepts(i) for i in [card, *(s.id for s in result.suggestions[:3])])
    return ("nocard" if card is None else "right" if case.accepts(card) else "wrong"), near


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save")
    parser.add_argument("--against")
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    args = parser.parse_args()
    only = set(filter(None, args.slices.split(",")))
    index = SearchIndex.build(load_glossary())
    rows = {}
    for n, case in enumerate(every_case()):
        if only and case.slice not in only:
            continue
        result = index.search(case.query)
        what, near = outcome(case, result)
        shown = [result.entry.id] if result.entry else [s.id for s in result.suggestions[:3]]
        seen = [] if case.slice in HELD_OUT or case.slice == "calib" else [case.expected, shown]
        rows[f"{n}\t{case.slice}\t{case.query}"] = (case.slice, what, near, *seen)
    saved_run(
        rows,
        args.save,
        args.against,
        lambda part: part in HELD_OUT or part == "calib",
        160,
        each_held_slice=True,
    )


if __name__ == "__main__":
    main()
