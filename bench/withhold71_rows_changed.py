"""Every relevance row `SearchIndex._scattered_kind_offered` (task withhold71) could touch,
searched with and without the rule: it acts only where `QuestionRules.more_specific` reads a
kind, which needs an entry's name of two or more words all written in the text (in any word
form, any order), so this measures the rule on all slices in minutes where the whole report
takes an hour under load. Tuning rows that change are printed; held-out ones only counted
(`held`), by their verdict before -> after (`offer_causes.row_verdict`).

The rule failed the ship rule and was reverted: run this where it exists, on commit 2f802a66
(`git worktree add /tmp/w 2f802a66`); elsewhere it stops with that message."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import print_moves, row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.keys import normalize  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.fulltext import stem_many  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402


def main() -> None:
    if not hasattr(SearchIndex, "_scattered_kind_offered"):
        raise SystemExit("no SearchIndex._scattered_kind_offered here: run on commit 2f802a66")
    entries = load_glossary()
    index = SearchIndex.build(entries)
    names = {
        tuple(sorted(set(stem_many(normalize(name).split()))))
        for entry in entries
        for name in entry.names
        if len(normalize(name).split()) > 1
    }
    cases = [
        case
        for name in SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if any(
            set(words) <= set(stem_many(normalize(case.query).replace("'", " ").split()))
            for words in names
        )
    ]
    print("candidate rows", len(cases))
    ruled = [row_verdict(c, index.search(c.query)) for c in cases]
    SearchIndex._scattered_kind_offered = lambda self, result, kind: result  # type: ignore[method-assign]
    plain = [row_verdict(c, index.search(c.query)) for c in cases]
    moves: dict[str, Counter[tuple[str, str]]] = {}
    changed: Counter[tuple[str, str, str, str]] = Counter()
    for case, before, after in zip(cases, plain, ruled, strict=True):
        held = case.slice in HELD_OUT or case.slice.startswith("test")
        group = "held out" if held else "tuning"
        moves.setdefault(group, Counter())[(before, after)] += 1
        if before != after:
            changed[(group, case.slice or "old", before, after)] += 1
            if not held:
                print("tuning", case.slice, repr(case.query), before, "->", after)
    for group in ("tuning", "held out"):
        print_moves(f"== {group}", moves.get(group, Counter()))
    print("== changed rows by slice")
    for key, count in sorted(changed.items()):
        print(*key, count)


if __name__ == "__main__":
    main()
