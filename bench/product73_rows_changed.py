"""Every relevance row task product73's reading could touch, searched with and without it: a row
changes only where a later clause points back at the scene before it (`questions.points_back`:
"what is that", "what does it mean", now also "what are those", the pronoun alone), so this
measures the change on all slices in minutes. Two parts: `points_back` reading "what are
those" (it may move a card, through `_clause_subject`), and `_other_name_pointed_at` (the card
of one of two names written offers the other first: offers only). Tuning rows that change are
printed; held-out ones only counted (`held`); then right / wrong / off-topic cards and card/3 of
the touched rows, before and after, per slice."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.search.questions as questions
from bench.asked71_rows_changed import outcome
from bench.relevance_report import every_case, shown_row_by_row
from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search.query import asked_clause, asked_subject, asks_what_it_is, query_core
from bot.search.relevance import Case


def main_points_back(clause: str) -> bool:
    """`points_back` as it was on main: the pronoun as the subject's first word only."""
    words = asked_subject(query_core(clause))[1][:1]
    if words and words[0] in questions._BACK_REFERENCES and clause.startswith(questions._WHAT):
        return True
    return asks_what_it_is(clause)


def touched(case: Case) -> bool:
    clauses = asked_clause(case.query)
    return clauses is not None and questions.points_back(clauses[1])


def tally(cases: list[Case], outcomes: list[tuple[str, bool]]) -> dict[str, Counter[str]]:
    per: dict[str, Counter[str]] = {}
    for case, (kind, near) in zip(cases, outcomes, strict=True):
        counts = per.setdefault(case.slice if shown_row_by_row(case.slice) else "held", Counter())
        counts[kind] += 1
        counts["card3"] += near
    return per


def main() -> None:
    cases = [case for case in every_case() if touched(case)]
    print("candidate rows", len(cases))
    index = SearchIndex.build(load_glossary())
    new = questions.points_back
    ruled = [outcome(c, index.search(c.query)) for c in cases]
    questions.points_back = main_points_back
    read = [outcome(c, index.search(c.query)) for c in cases]  # main's reading, the rule on
    rule = SearchIndex._other_name_pointed_at
    SearchIndex._other_name_pointed_at = lambda self, result, *rest: result  # type: ignore[method-assign]
    plain = [outcome(c, index.search(c.query)) for c in cases]
    questions.points_back, SearchIndex._other_name_pointed_at = new, rule  # type: ignore[method-assign]
    for label, before, after in (("reading", read, ruled), ("all", plain, ruled)):
        moved: Counter[tuple[str, str, str]] = Counter()
        for case, was, now in zip(cases, before, after, strict=True):
            if was != now:
                shown = shown_row_by_row(case.slice)
                if shown and label == "all":
                    print("tuning", case.slice, repr(case.query), was, "->", now)
                moved[(case.slice if shown else "held", str(was), str(now))] += 1
        print(f"{label}: rows changed", sum(moved.values()))
        for key, count in sorted(moved.items()):
            print(" ", *key, count)
    for name, counts in sorted(tally(cases, plain).items()):
        after = tally(cases, ruled)[name]
        print(
            name,
            f"{counts['right']} / {counts['wrong']} / {counts['offcard']}, card/3 {counts['card3']}",
            "->",
            f"{after['right']} / {after['wrong']} / {after['offcard']}, card/3 {after['card3']}",
        )


if __name__ == "__main__":
    main()
