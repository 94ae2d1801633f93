"""The what-if of an alias added to data/ (task names75: "pos encoding" for Positional Encoding),
by two runs of this script, one before the edit (`--save FILE`) and one after (`--against FILE`).
An alias is no part of any entry's embedded text (`semantic.vectors.entry_text`), so only rows
writing it (`--touch`, a pattern over the lowered text) can change; the old set
(tests/search/relevance.tsv) is read too, as the slice "old".

    OPENBLAS_NUM_THREADS=1 python bench/names75_alias_rows_changed.py --touch '\\bpos\\b' --save /tmp/a.json
    (edit data/)
    OPENBLAS_NUM_THREADS=1 python bench/names75_alias_rows_changed.py --touch '\\bpos\\b' --against /tmp/a.json
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT, every_case  # noqa: E402
from bench.step_whatif import saved_run  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case, load_cases  # noqa: E402


def outcome(case: Case, index: SearchIndex) -> tuple[str, bool]:
    result = index.search(case.query)
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return ("ok" if card is None or case.accepts(card) else "off"), False
    near = any(case.accepts(i) for i in [card, *(s.id for s in result.suggestions[:3])])
    return ("nocard" if card is None else "right" if case.accepts(card) else "wrong"), near


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--touch", required=True, help="a pattern over the lowered row text")
    parser.add_argument("--save")
    parser.add_argument("--against")
    args = parser.parse_args()
    touch = re.compile(args.touch)
    old = [replace(c, slice="old") for c in load_cases(ROOT / "tests/search/relevance.tsv")]
    cases = [c for c in [*every_case(), *old] if touch.search(c.query.lower())]
    index = SearchIndex.build(load_glossary())
    rows = {}
    for n, case in enumerate(cases):
        what, near = outcome(case, index)
        rows[f"{n}\t{case.slice}\t{case.query}"] = (case.slice, what, near)
    saved_run(rows, args.save, args.against, lambda part: part in HELD_OUT or part == "calib", 160)


if __name__ == "__main__":
    main()
