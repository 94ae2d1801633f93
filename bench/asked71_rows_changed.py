"""Every relevance row task asked71's reading could touch, searched with and without it: a row
changes only where a later clause asks what the scene's name is by pointing back at it
(`query.asks_what_it_is`), its scene writes names as said, mentioned or seen
(`query.mentioned_at`) or a clause opens "someone mentioned ..." (`query._reports_a_mention`),
so this measures the reading on all slices in minutes where the whole report takes most of an
hour under load. Each part is also measured alone (totals per slice). Tuning rows that change
are printed; held-out ones only counted per slice (`held ...`), never shown."""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.search.query as query_module
import bot.search.questions as questions
from bench.relevance_report import SETS, every_case, shown_row_by_row
from bot.glossary import load_glossary
from bot.search import SearchIndex, SearchResult
from bot.search.query import asked_clause, asks_what_it_is, mentioned_at
from bot.search.relevance import Case

_SOMEONE = re.compile(r"\bsome(?:one|body)\b", re.IGNORECASE)


def outcome(case: Case, result: SearchResult) -> tuple[str, bool]:
    """The row's card (right / wrong / nocard, or offcard / ok off topic) and whether a right
    entry is the card or among the first three offers (card/3), as the report counts them
    (`Case.accepts`)."""
    card = result.entry.id if result.entry else None
    shown = [card] if card else [s.id for s in result.suggestions[:3]]
    if case.expected is None:
        return ("offcard" if card is not None and not case.accepts(card) else "ok"), False
    kind = "nocard" if card is None else ("right" if case.accepts(card) else "wrong")
    return kind, any(case.accepts(i) for i in shown)


def touched(query: str) -> bool:
    if _SOMEONE.search(query):
        return True
    clauses = asked_clause(query)
    if clauses is None:
        return False
    scene = clauses[0]
    starts = [at + 1 for at, letter in enumerate(scene) if letter == " "]
    return asks_what_it_is(clauses[1]) or any(mentioned_at(scene, at) for at in starts)


PARTS: dict[str, tuple[object, str, Callable[..., bool]]] = {
    "pointed back": (questions, "asks_what_it_is", lambda clause: False),
    "mentioned": (questions, "mentioned_at", lambda scene, start: True),
    "someone": (query_module, "_reports_a_mention", lambda clause: False),
}


def searched(index: SearchIndex, rows: list[Case], off: set[str]) -> list[tuple[str, bool]]:
    """The rows' outcomes with the parts in `off` turned off."""
    kept = {name: getattr(module, attr) for name, (module, attr, _) in PARTS.items()}
    for name in off:
        module, attr, plain = PARTS[name]
        setattr(module, attr, plain)
    try:
        return [outcome(r, index.search(r.query)) for r in rows]
    finally:
        for name, (module, attr, _) in PARTS.items():
            setattr(module, attr, kept[name])


def totals(
    rows: list[Case], before: list[tuple[str, bool]], after: list[tuple[str, bool]]
) -> Counter[tuple[str, str, str]]:
    moved: Counter[tuple[str, str, str]] = Counter()
    for row, b, a in zip(rows, before, after, strict=True):
        if b != a:
            name = row.slice
            held = not shown_row_by_row(name)
            moved[
                (
                    f"held {name}" if held else name,
                    f"{b[0]}{'+3' if b[1] else ''}",
                    f"{a[0]}{'+3' if a[1] else ''}",
                )
            ] += 1
    return moved


def main() -> None:
    """Every set the report reads, or those whose names the arguments give
    (relevance_blind53.tsv)."""
    only = set(sys.argv[1:])
    rows = [c for c in every_case([n for n in SETS if not only or n in only]) if touched(c.query)]
    print("candidate rows", len(rows))
    index = SearchIndex.build(load_glossary())
    plain = searched(index, rows, set(PARTS))
    ruled = searched(index, rows, set())
    for name in PARTS:
        alone = searched(index, rows, set(PARTS) - {name})
        print(name, "alone:", dict(totals(rows, plain, alone)))
    for row, b, a in zip(rows, plain, ruled, strict=True):
        if b != a and shown_row_by_row(row.slice):
            print("tuning", row.slice, repr(row.query), b, "->", a)
    print("all parts:")
    for key, count in sorted(totals(rows, plain, ruled).items()):
        print(" ", *key, count)


if __name__ == "__main__":
    main()
