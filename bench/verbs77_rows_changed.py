"""The what-if of task verbs77 (a name written as a verb or another word form): `find_mentions`
reading a word that only starts a longer name, not written, as the form of a noun where the text
writes no name as it is (`terms.NAME_STARTS_AS_FORMS`: part "starts"), and the meaning reading a
name written only as a form no common-English list holds as its title
(`SearchIndex._forms_spelled`: part "spelled"). Every row with a word some form of which is a
name (`terms._derived_entry`, the only reading the two change) is searched with them and
without; tuning rows that change are printed, held-out ones counted (bench/step_whatif.py's
outcomes). `--parts` measures one alone (the other off, as on main, both ways).

    OPENBLAS_NUM_THREADS=1 python bench/verbs77_rows_changed.py [--slices dev31,test39]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bench.step_whatif import outcome
from bot.glossary import load_glossary
from bot.glossary.keys import compact
from bot.search import SearchIndex, terms


def switch(on: bool, parts: frozenset[str] = frozenset({"starts", "spelled"})) -> None:
    """Each change of `parts` on or off; the others off (as on main) both ways."""
    terms.NAME_STARTS_AS_FORMS = on and "starts" in parts
    spelled = on and "spelled" in parts
    SearchIndex._forms_spelled = SPELLED if spelled else (lambda self, text, names_in: text)  # type: ignore[method-assign]


SPELLED = SearchIndex._forms_spelled


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    parser.add_argument("--parts", default="starts,spelled", help="the changes measured")
    args = parser.parse_args()
    only = set(filter(None, args.slices.split(",")))
    parts = frozenset(args.parts.split(","))
    index = SearchIndex.build(load_glossary())
    names, allowed = index.names, (lambda e: True)
    cache: dict[str, bool] = {}

    def formed(word: str) -> bool:
        if word not in cache:
            cache[word] = terms._derived_entry(word, names, allowed) is not None
        return cache[word]

    cases = [
        c
        for c in every_case()
        if (not only or c.slice in only)
        and any(
            formed(w)
            for w in (
                *re.findall(r"[a-z]+", c.query.lower().replace("-", "")),
                *(compact(t) for t in terms._WORD.findall(c.query)),  # as the reading folds them
            )
        )
    ]
    print("candidate rows", len(cases), flush=True)
    changed: Counter[tuple[str, str, str]] = Counter()
    for case in cases:
        switch(True, parts)
        after_result = index.search(case.query)
        switch(False, parts)
        before_result = index.search(case.query)
        before, after = outcome(case, before_result), outcome(case, after_result)
        if before == after:
            continue
        if shown_row_by_row(case.slice):
            card = before_result.entry.id if before_result.entry else None
            new = after_result.entry.id if after_result.entry else None
            print(
                "tuning",
                case.slice,
                repr(case.query),
                case.expected,
                card,
                before,
                "->",
                new,
                after,
                flush=True,
            )
        changed[(case.slice, before, after)] += 1
    for key, count in sorted(changed.items()):
        print(*key, count)
    for group in ("tuning", "held"):
        net: Counter[str] = Counter()
        for (name, before, after), count in changed.items():
            if (group == "held") != (not shown_row_by_row(name) and name != "calib"):
                continue
            net[before] -= count
            net[after] += count
        print(group, "net:", dict(net))


if __name__ == "__main__":
    main()
