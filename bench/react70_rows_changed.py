"""Every relevance row `SearchIndex._compared_off_field` (task react70) could touch, searched with
and without the rule: a row can change only where its text writes a word of other_fields.txt,
so this measures the rule on all slices in a minute where the whole report took over an hour
under load. Tuning rows that change are printed; held-out ones only counted (`held`)."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bot.glossary import load_glossary
from bot.search import SearchIndex, SearchResult
from bot.search.everyday import other_field_words
from bot.search.relevance import Case


def outcome(case: Case, result: SearchResult) -> str:
    """The row's card as the report counts it: right / wrong / nocard on topic, offcard / ok
    off it (`Case.accepts`: the expected entry or one of `also`)."""
    card = result.entry.id if result.entry else None
    if case.expected is None:
        return "offcard" if card is not None and not case.accepts(card) else "ok"
    return "nocard" if card is None else ("right" if case.accepts(card) else "wrong")


def touched(case: Case, words: frozenset[str] | set[str]) -> bool:
    """Whether the row's text writes a word of other_fields.txt (all the rule reads)."""
    text = case.query.lower()
    said = set(re.findall(r"[a-z0-9]+", text))
    return bool(said & words) or any(w in text for w in words if len(w) > 4)


def changed_rows(
    cases: list[Case], before: list[str], after: list[str]
) -> Counter[tuple[str, str, str]]:
    """Per slice (held-out ones as `held`), how many rows went from one outcome to another;
    the tuning rows that changed are printed."""
    changed: Counter[tuple[str, str, str]] = Counter()
    for case, was, now in zip(cases, before, after, strict=True):
        if was != now:
            tuning = shown_row_by_row(case.slice)
            if tuning:
                print("tuning", case.slice, repr(case.query), was, "->", now)
            changed[(case.slice if tuning else "held", was, now)] += 1
    return changed


def main() -> None:
    words = other_field_words()
    index = SearchIndex.build(load_glossary())
    cases = [case for case in every_case() if touched(case, words)]
    print("candidate rows", len(cases))
    ruled = [outcome(c, index.search(c.query)) for c in cases]
    SearchIndex._compared_off_field = lambda self, result, *rest: result  # type: ignore[method-assign]
    plain = [outcome(c, index.search(c.query)) for c in cases]
    for key, count in sorted(changed_rows(cases, plain, ruled).items()):
        print(*key, count)


if __name__ == "__main__":
    main()
