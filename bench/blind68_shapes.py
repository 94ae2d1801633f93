"""dev22 and test30 (relevance_blind47.md / 48.md) by question shape: totals only.

    OPENBLAS_NUM_THREADS=1 python bench/blind68_shapes.py [--misses]

Each question is put in one shape by its text alone, first match wins: "compares" (a second
entry in `also`), "misspelt" (a word with the first letter and within one slip (two for words of 7+
letters) of a title or id word of its entry, neither a prefix of the other: "fucntion",
"quantizaton"), "names" (a word of the entry's title
or id, or the initials of its title), "names nothing". The rule is approximate ("q and k" for
QK-Norm counts as naming nothing). Descriptions and off-topic rows keep their kind. test30 is
held out: its shapes' totals are printed, never its rows; --misses lists dev22's only.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

from rapidfuzz.distance import OSA

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.slice_shapes import print_by_shape  # noqa: E402
from bot.glossary import Glossary, load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case  # noqa: E402

SETS = ("relevance_blind47.tsv", "relevance_blind48.tsv")
TUNING = {"dev22"}
STOPWORDS = {"of", "the", "and", "for", "to", "in", "on"}


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def names_of(glossary: Glossary) -> dict[str, set[str]]:
    """Each entry's words that name it: its title's and id's, and its title's initials."""
    names = {}
    for entry in glossary:
        title = re.split(r"[\s\-()&]+", entry.title.lower())
        initials = "".join(w[0] for w in title if w)
        said = words(entry.title) | set(entry.id.split("-")) | {initials}
        names[entry.id] = {w for w in said if len(w) > 1 and w not in STOPWORDS}
    return names


def shape(case: Case, names: dict[str, set[str]]) -> str:
    if case.also:
        return "q compares"
    own = names[case.expected]
    said = words(case.query)
    slips = {
        w
        for w in said - own
        for n in own
        if len(n) >= 4
        and len(w) >= 3
        and w[0] == n[0]
        and not (w.startswith(n) or n.startswith(w))
        and OSA.distance(w, n) <= (1 if len(n) <= 6 else 2)
    }
    if slips:
        return "q misspelt"
    return "q names" if said & own else "q names nothing"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list dev22's misses by shape")
    args = parser.parse_args()
    glossary = load_glossary()
    names = names_of(glossary)
    index = SearchIndex.build(glossary)

    def shaped(_: str, cases: list[Case]) -> list[Case]:
        return [
            replace(case, kind=shape(case, names)) if case.kind == "question" else case
            for case in cases
        ]

    print_by_shape(index, SETS, shaped, TUNING, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
