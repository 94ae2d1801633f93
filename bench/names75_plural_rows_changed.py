"""The what-if of names75's acronym plurals (`bot.glossary.keys.ACRONYM_PLURAL`: "tpus" is the
other number of "tpu"), a module constant read wherever a key's other number is (search, the
glossary's checks), so measured by two runs: `--main` (the constant 0, main's rule) `--save
FILE`, then the branch `--against FILE`. Only rows writing a word of at most `ACRONYM_PLURAL`
letters ending in "us" can change; the old set (tests/search/relevance.tsv) is read too, as the
slice "old".

    OPENBLAS_NUM_THREADS=1 python bench/names75_plural_rows_changed.py --main --save /tmp/a.json
    OPENBLAS_NUM_THREADS=1 python bench/names75_plural_rows_changed.py --against /tmp/a.json
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.glossary.keys as keys_module  # noqa: E402
from bench.relevance_report import HELD_OUT, every_case  # noqa: E402
from bench.step_whatif import saved_run  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case, load_cases  # noqa: E402

MAY_TOUCH = re.compile(rf"\b[a-z]{{1,{keys_module.ACRONYM_PLURAL - 2}}}us\b")


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
    parser.add_argument("--main", action="store_true", help="main's rule: no acronym plural")
    args = parser.parse_args()
    if args.main:
        keys_module.ACRONYM_PLURAL = 0
    old = [replace(c, slice="old") for c in load_cases(ROOT / "tests/search/relevance.tsv")]
    cases = [c for c in [*every_case(), *old] if MAY_TOUCH.search(c.query.lower())]
    index = SearchIndex.build(load_glossary())
    rows = {}
    for n, case in enumerate(cases):
        what, near = outcome(case, index)
        rows[f"{n}\t{case.slice}\t{case.query}"] = (case.slice, what, near)
    saved_run(rows, args.save, args.against, lambda part: part in HELD_OUT or part == "calib", 160)


if __name__ == "__main__":
    main()
