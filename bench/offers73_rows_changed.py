"""Every relevance row `SearchIndex._offers_filled` (task offers73) changes, searched with and
without it, per-slice totals only: right / wrong / off-topic cards and card/3 (the right entry as
the card or among the first three offers). One pass over every row of every slice with the rule,
the rule's calls recorded; the rows where it appended offers are searched again without it. The
card must be the same on every such row (asserted): the rule only fills offers. Held-out rows are
never printed, only counted into their slice's totals.

    OPENBLAS_NUM_THREADS=1 python bench/offers73_rows_changed.py [--slices dev27,test35]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT as REPORT_HELD_OUT  # noqa: E402
from bench.relevance_report import SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.relevance import Case, load_cases  # noqa: E402

HELD_OUT = {*REPORT_HELD_OUT, "calib"}  # calib is held out too: its totals only
fired: list[bool] = []


def tallies(case: Case, result: SearchResult) -> Counter[str]:
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return Counter(offcard=int(card is not None and not case.accepts(card)))
    shown = [card, *(s.id for s in result.suggestions[:3])]
    return Counter(
        right=int(case.accepts(card)),
        wrong=int(card is not None and not case.accepts(card)),
        card3=int(any(case.accepts(i) for i in shown)),
        n=1,
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    only = set(filter(None, parser.parse_args().slices.split(",")))
    index = SearchIndex.build(load_glossary())
    filled = SearchIndex._offers_filled

    def recorded(self, result):  # type: ignore[no-untyped-def]
        after = filled(self, result)
        fired.append(after is not result)
        return after

    SearchIndex._offers_filled = recorded  # type: ignore[method-assign]
    cases = [c for name in SETS for c in load_cases(ROOT / "tests/search" / name)]
    cases = [c for c in cases if not only or c.slice in only]
    changed: list[tuple[Case, SearchResult]] = []
    for case in cases:
        fired.clear()
        result = index.search(case.query)
        if any(fired):
            changed.append((case, result))
    print("rows", len(cases), "rule fired", len(changed))
    SearchIndex._offers_filled = lambda self, result: result  # type: ignore[method-assign]
    before: dict[str, Counter[str]] = {}
    after: dict[str, Counter[str]] = {}
    for case, ruled in changed:
        plain = index.search(case.query)
        assert plain.entry == ruled.entry, case.query
        assert plain.status == ruled.status, case.query
        assert ruled.suggestions[: len(plain.suggestions)] == plain.suggestions, case.query
        before.setdefault(case.slice, Counter()).update(tallies(case, plain))
        after.setdefault(case.slice, Counter()).update(tallies(case, ruled))
        tuning = case.slice not in HELD_OUT
        if tuning and tallies(case, plain) != tallies(case, ruled):
            print("tuning", case.slice, repr(case.query[:100]), "gains", case.expected)
    print("slice  rows-fired  right  wrong  offcard  card/3 before -> after")
    sums: dict[str, Counter[str]] = {"held": Counter(), "tuning": Counter()}
    for name in sorted(before):
        b, a = before[name], after[name]
        print(
            f"{name:<15}{b['n']:>5}  {b['right']}->{a['right']}  {b['wrong']}->{a['wrong']}  "
            f"{b['offcard']}->{a['offcard']}  {b['card3']}->{a['card3']}"
        )
        group = "held" if name in HELD_OUT else "tuning"
        sums[group].update({f"b_{k}": v for k, v in b.items()})
        sums[group].update({f"a_{k}": v for k, v in a.items()})
    for group, s in sums.items():
        print(
            group,
            f"right {s['b_right']}->{s['a_right']} wrong {s['b_wrong']}->{s['a_wrong']} "
            f"offcard {s['b_offcard']}->{s['a_offcard']} card/3 {s['b_card3']}->{s['a_card3']}",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
