"""Every relevance row `SearchIndex._agreed_offer_carded` (task offer72) changes, searched with
and without the step: one pass over every row of every slice with the step on, recording the
rows where it turned an offer into a card, then those rows again with the step off (a row where
it never fired is the same either way). Per slice (held-out slices only as totals): right, wrong
and off-topic cards and card/3 (the right entry as the card or among the first three offers)
before -> after; tuning rows that change are printed. The step was reverted (it failed the ship
rule on held out): this runs on 68e3068f, where it is.

    OPENBLAS_NUM_THREADS=1 python bench/offer72_rows_changed.py [--slices dev26,test34]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402

STEP = SearchIndex._agreed_offer_carded


def tallies(case: Case, result: SearchResult) -> Counter[str]:
    card = result.entry.id if result.entry else None
    if case.kind in OFF_TOPIC_KINDS:
        return Counter(off=card is not None)
    shown = [card, *(s.id for s in result.suggestions[:3])]
    return Counter(
        right=case.accepts(card),
        wrong=card is not None and not case.accepts(card),
        card3=any(case.accepts(i) for i in shown),
    )


def main() -> int:
    index = SearchIndex.build(load_glossary())
    fired: list[bool] = []

    def traced(self, result, *args):  # type: ignore[no-untyped-def]
        after = STEP(self, result, *args)
        fired[0] = fired[0] or after is not result
        return after

    wanted = (
        set(sys.argv[sys.argv.index("--slices") + 1].split(",")) if "--slices" in sys.argv else None
    )
    cases = [
        c
        for name in SETS
        for c in load_cases(ROOT / "tests/search" / name)
        if wanted is None or c.slice in wanted
    ]
    print("rows", len(cases), flush=True)
    SearchIndex._agreed_offer_carded = traced  # type: ignore[method-assign]
    touched: list[tuple[Case, SearchResult]] = []
    for n, case in enumerate(cases):
        fired[:] = [False]
        result = index.search(case.query)
        if fired[0]:
            touched.append((case, result))
        if n % 2000 == 0:
            print("searched", n, "fired", len(touched), flush=True)
    SearchIndex._agreed_offer_carded = lambda self, result, *args: result  # type: ignore[method-assign]
    before: dict[str, Counter[str]] = {}
    after: dict[str, Counter[str]] = {}
    for case, result in touched:
        plain = index.search(case.query)
        name = case.slice if case.slice not in HELD_OUT else "held"
        before.setdefault(name, Counter()).update(tallies(case, plain))
        after.setdefault(name, Counter()).update(tallies(case, result))
        if name != "held" and (plain.entry, plain.suggestions[:1]) != (
            result.entry,
            result.suggestions[:1],
        ):
            was = plain.entry.id if plain.entry else f"offer {plain.best_id}"
            now = result.entry.id if result.entry else f"offer {result.best_id}"
            print(f"{name} {case.kind} {case.query!r}: {was} -> {now} (want {case.expected})")
        if case.slice in HELD_OUT:  # per held-out slice: totals only
            before.setdefault(case.slice, Counter()).update(tallies(case, plain))
            after.setdefault(case.slice, Counter()).update(tallies(case, result))
    print(f"rows the step fired on: {len(touched)}")
    for name in sorted(after):
        b, a = before[name], after[name]
        print(
            f"{name:<16} right {b['right']}->{a['right']} wrong {b['wrong']}->{a['wrong']} "
            f"off {b['off']}->{a['off']} card3 {b['card3']}->{a['card3']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
