"""Every relevance row over 250 characters (the only rows task long71's change can touch: it
reads texts of fusion.CLAUSED_CHARS or more, normalised), searched with the branch's code and
tallied per slice as the report does (right card, on-topic wrong card, off-topic card, right
among the card and first three offers). `--save FILE` writes the per-row outcomes; `--against
FILE` compares with a saved run and prints per-slice totals of both, tuning rows that changed by
text, held-out ones only counted. `--plain` searches without the clause vote (main's ranking)
for a baseline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bench.step_whatif import saved_run  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case, load_cases  # noqa: E402

LONG = 250


def outcome(case: Case, index: SearchIndex) -> tuple[str, bool]:
    result = index.search(case.query)
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return ("ok" if card is None or case.accepts(card) else "off"), False
    near = any(case.accepts(i) for i in [card, *(s.id for s in result.suggestions[:3])])
    return ("nocard" if card is None else "right" if case.accepts(card) else "wrong"), near


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save")
    parser.add_argument("--against")
    parser.add_argument("--plain", action="store_true", help="the clause vote out of reach")
    args = parser.parse_args()
    if args.plain:
        index_module.CLAUSED_CHARS = 10**9
    cases = [
        c
        for name in SETS
        for c in load_cases(ROOT / "tests" / "search" / name)
        if len(c.query) > LONG
    ]
    index = SearchIndex.build(load_glossary())
    rows = {}
    for n, case in enumerate(cases):
        what, near = outcome(case, index)
        rows[f"{n}\t{case.slice}\t{case.query}"] = (case.slice, what, near)
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
