"""Each tuning row whose answer the told-scene rule changes (`SearchIndex._told_name_not_asked`,
task scene48): searched with the rule and without it (the rule stubbed to False), and the
totals of both (right / on-topic wrong / off-topic cards; the right entry as card or in the first
three). Only rows that `asked_clause` splits with a scene the asker tells can change.

    python bench/scene48_diff.py [--slices dev,calib,...]

Tuning slices only (held-out slices are refused).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.query import asked_clause, told_by_asker  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402


def shown(result: SearchResult) -> str:
    if result.entry is not None:
        return result.entry.id
    return "offers:" + ",".join(s.id for s in result.suggestions[:3])


def tally(case: Case, result: SearchResult) -> tuple[int, int, int, int]:
    """(right, on-topic wrong, off-topic card, card or first three)"""
    if case.kind in OFF_TOPIC_KINDS:
        return 0, 0, int(result.entry is not None), 0
    if result.entry is not None:
        right = case.accepts(result.entry.id)
        return int(right), int(not right), 0, int(right)
    return 0, 0, 0, int(any(case.accepts(s.id) for s in result.suggestions[:3]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join((*TUNING, "dev16")))
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT
    index = SearchIndex.build(load_glossary())
    rule = SearchIndex._told_name_not_asked
    totals = {"rule": [0, 0, 0, 0], "without": [0, 0, 0, 0]}
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice not in slices or case.slice in HELD_OUT:
                continue
            split = asked_clause(case.query)
            if split is None or not told_by_asker(split[0]):
                continue
            with_rule = index.search(case.query)
            SearchIndex._told_name_not_asked = lambda *a, **k: False  # type: ignore[method-assign]
            try:
                without = index.search(case.query)
            finally:
                SearchIndex._told_name_not_asked = rule  # type: ignore[method-assign]
            for key, result in (("rule", with_rule), ("without", without)):
                totals[key] = [a + b for a, b in zip(totals[key], tally(case, result), strict=True)]
            if shown(with_rule) != shown(without):
                print(
                    f"{case.slice}\t{case.expected}\t{shown(without)} -> {shown(with_rule)}"
                    f"\t{case.query}"
                )
    for key, (right, wrong, off, card3) in totals.items():
        print(
            f"{key}: right {right} / wrong {wrong} / off-topic {off}; card or first three {card3}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
