"""Every relevance row `SearchIndex._contrast_name_offered` (task contrast73) could touch,
searched with and without the step: it acts only where the text writes one of
`contrast_only`'s words, so this measures it on all slices in minutes where the whole report
takes most of an hour under load. Each row
is searched once with the step (wrapped to see whether it changed the result) and once more
without it only where it did. Tuning rows that change are printed; held-out ones only counted
per slice (right / wrong / off-topic card / no card, + where the right entry is among the
first three offers; before -> after). Rights follow
`Case.accepts` (the `also` column split on "," as `load_cases` does)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402

HELD_OUT = ("everyday-check", "chat-check", "calib")
MAY_TOUCH = re.compile(
    r"\b(?:without|w/o|no|skip|skips|skipping|skipped|drop|drops|dropping|dropped|ditch|ditches"
    r"|ditching|rid|need|needs|require|requires|instead|rather|place|replace|replaces|replaced"
    r"|replacing|alternative|alternatives|unlike|compared|different|differs|than|like|level"
    r"|sized|class|grade)\b"
)


def outcome(case: Case, result: SearchResult) -> str:
    card = result.entry.id if result.entry else None
    if case.kind in OFF_TOPIC_KINDS or case.expected is None:
        return "offcard" if card and not case.accepts(card) else "ok"
    if card is None:  # "nocard+": the right entry among the first three offers (card/3)
        return "nocard+" if any(case.accepts(s.id) for s in result.suggestions[:3]) else "nocard"
    return "right" if case.accepts(card) else "wrong"


def main() -> None:
    index = SearchIndex.build(load_glossary())
    cases = [
        c
        for name in SETS
        for c in load_cases(ROOT / "tests" / "search" / name)
        if MAY_TOUCH.search(c.query.lower())
    ]
    print("candidate rows", len(cases), flush=True)
    step = SearchIndex._contrast_name_offered
    fired: list[bool] = []

    def watched(self, result, *rest):  # type: ignore[no-untyped-def]
        after = step(self, result, *rest)
        fired.append(after is not result)
        return after

    SearchIndex._contrast_name_offered = watched  # type: ignore[method-assign]
    changed: Counter[tuple[str, str, str]] = Counter()
    for case in cases:
        fired.clear()
        ruled = index.search(case.query)
        if not any(fired):
            continue
        SearchIndex._contrast_name_offered = lambda self, result, *rest: result  # type: ignore[method-assign]
        plain = index.search(case.query)
        SearchIndex._contrast_name_offered = watched  # type: ignore[method-assign]
        before, after = outcome(case, plain), outcome(case, ruled)
        if before == after:
            continue
        tuning = not case.slice.startswith("test") and case.slice not in HELD_OUT
        if tuning:
            card = plain.entry.id if plain.entry else None
            print("tuning", case.slice, repr(case.query), card, before, "->", after, flush=True)
        changed[(case.slice, before, after)] += 1  # held out: per-slice totals only
    for key, count in sorted(changed.items()):
        print(*key, count)
    held = Counter()
    for (name, before, after), count in changed.items():
        if name.startswith("test") or name in HELD_OUT:
            held[before] -= count
            held[after] += count
    print("held out net:", dict(held))


if __name__ == "__main__":
    main()
