"""The exact effect of `SearchIndex._question_agreed` (issue #12, task "question49") on the
tuning rows: every tuning row searched with the rule stubbed out, then the rows where it could
fire at the loosest bounds searched again with it, at each cosine floor and field floor asked.

    python bench/question49_diff.py [--cosines 0.56,0.58,0.6] [--fields 0.15,0.2] [--rows]

Tuning slices only (held-out slices are refused). Prints, per variant, the right / on-topic
wrong / off-topic cards and the card-or-first-three count over the rows that changed, and with
`--rows` each changed row."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, fusion  # noqa: E402
from bot.search import index as index_module  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402
from bot.search.results import SearchResult  # noqa: E402


def score(case: Case, result: SearchResult) -> tuple[int, int, int, int]:
    """(right card, on-topic wrong card, off-topic card, right as card or in the first three)."""
    if case.kind in OFF_TOPIC_KINDS:
        return 0, 0, int(result.entry is not None), 0
    if result.entry is not None:
        right = case.accepts(result.entry.id)
        return int(right), int(not right), 0, int(right)
    return 0, 0, 0, int(any(case.accepts(s.id) for s in result.suggestions[:3]))


def shown(result: SearchResult) -> str:
    if result.entry is not None:
        return result.entry.id
    return "offers:" + ",".join(s.id for s in result.suggestions[:3])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cosines", default="0.56,0.58,0.6")
    parser.add_argument("--fields", default="0.15,0.2")
    parser.add_argument("--rows", action="store_true")
    args = parser.parse_args()
    cosines = [float(c) for c in args.cosines.split(",")]
    fields = [float(f) for f in args.fields.split(",")]
    index = SearchIndex.build(load_glossary())
    rule = SearchIndex._question_agreed
    fired: list[bool] = []

    def stub(self, *a):  # type: ignore[no-untyped-def]
        """The rule never fires; the rows where it would are noted."""
        if rule(self, *a) is not None:
            fired.append(True)

    cases = [
        case
        for name in SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice in TUNING and case.slice not in HELD_OUT
    ]
    SearchIndex._question_agreed = stub  # type: ignore[method-assign]
    fusion.QUESTION_COSINE, index_module.QUESTION_FIELD_COSINE = min(cosines), min(fields)
    before: dict[int, SearchResult] = {}
    for i, case in enumerate(cases):
        fired.clear()
        result = index.search(case.query)
        if fired:
            before[i] = result
    SearchIndex._question_agreed = rule  # type: ignore[method-assign]
    print(f"{len(cases)} tuning rows; the rule could fire on {len(before)}")
    for cosine in cosines:
        for field in fields:
            fusion.QUESTION_COSINE, index_module.QUESTION_FIELD_COSINE = cosine, field
            totals = [0, 0, 0, 0]
            changed = []
            for i, old in before.items():
                case = cases[i]
                new = index.search(case.query)
                if shown(new) == shown(old):
                    continue
                delta = [n - o for n, o in zip(score(case, new), score(case, old), strict=True)]
                totals = [t + d for t, d in zip(totals, delta, strict=True)]
                changed.append(
                    f"  {case.slice} {case.kind} {shown(old)} -> {shown(new)} "
                    f"(want {case.expected or '-'}) {case.query}"
                )
            print(
                f"cosine {cosine} field {field}: {len(changed)} rows changed; right "
                f"{totals[0]:+d}, wrong {totals[1]:+d}, off-topic {totals[2]:+d}, "
                f"card or first three {totals[3]:+d}"
            )
            if args.rows:
                print("\n".join(sorted(changed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
