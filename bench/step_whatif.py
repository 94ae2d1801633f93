"""A search step's what-if, the part every `bench/*_rows_changed.py` of this shape shares: every
relevance row a `SearchIndex` step could touch (its text matches the script's `may_touch`) is
searched once with the step, wrapped to see whether it changed the result, and once more without
it only where it did, so a step is measured on all slices in minutes where the whole report
takes most of an hour under load. Tuning rows that change are printed; held-out ones only counted
per slice (right / wrong / off-topic card / no card, + where the right entry is among the first
three offers; before -> after). Rows are read as the report reads them
(`bench.relevance_report.every_case`: rights follow `Case.accepts`).

    OPENBLAS_NUM_THREADS=1 python bench/NAME_rows_changed.py [--slices dev27,test35]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bot.glossary import load_glossary
from bot.search import SearchIndex, SearchResult
from bot.search.relevance import OFF_TOPIC_KINDS, Case


def outcome(case: Case, result: SearchResult) -> str:
    card = result.entry.id if result.entry else None
    if case.kind in OFF_TOPIC_KINDS or case.expected is None:
        return "offcard" if card and not case.accepts(card) else "ok"
    if card is None:  # "nocard+": the right entry among the first three offers (card/3)
        return "nocard+" if any(case.accepts(s.id) for s in result.suggestions[:3]) else "nocard"
    return "right" if case.accepts(card) else "wrong"


def unchanged(self, result, *rest):  # type: ignore[no-untyped-def]
    """A step taking the result first, as it is where the step does nothing."""
    return result


def main(step_name: str, may_touch: re.Pattern[str], without=unchanged) -> None:  # type: ignore[no-untyped-def]
    """The what-if of `SearchIndex.<step_name>`, a step taking the result first and returning it
    (the same object) where it does nothing, over the rows whose lowered text `may_touch` finds.
    A step of another shape (`_voting_clauses`: which clauses vote) passes `without`, the step
    as main has it, called with the same arguments: the step fired where the two differ."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    only = set(filter(None, parser.parse_args().slices.split(",")))
    index = SearchIndex.build(load_glossary())
    cases = [
        c
        for c in every_case()
        if (not only or c.slice in only) and may_touch.search(c.query.lower())
    ]
    print("candidate rows", len(cases), flush=True)
    step = getattr(SearchIndex, step_name)
    fired: list[bool] = []

    def watched(self, *args):  # type: ignore[no-untyped-def]
        after = step(self, *args)
        before = without(self, *args)
        fired.append(after is not before and after != before)
        return after

    setattr(SearchIndex, step_name, watched)
    changed: Counter[tuple[str, str, str]] = Counter()
    for case in cases:
        fired.clear()
        ruled = index.search(case.query)
        if not any(fired):
            continue
        setattr(SearchIndex, step_name, without)
        plain = index.search(case.query)
        setattr(SearchIndex, step_name, watched)
        before, after = outcome(case, plain), outcome(case, ruled)
        if before == after:
            continue
        if shown_row_by_row(case.slice):
            card = plain.entry.id if plain.entry else None
            print("tuning", case.slice, repr(case.query), card, before, "->", after, flush=True)
        changed[(case.slice, before, after)] += 1  # held out: per-slice totals only
    for key, count in sorted(changed.items()):
        print(*key, count)
    held: Counter[str] = Counter()
    for (name, before, after), count in changed.items():
        if not shown_row_by_row(name):
            held[before] -= count
            held[after] += count
    print("held out net:", dict(held))
