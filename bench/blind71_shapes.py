"""dev25 and test33 (relevance_blind53.md / 54.md) by shape: totals only.

    OPENBLAS_NUM_THREADS=1 python bench/blind71_shapes.py [--misses]

The files are in block order (the .md files say so and test_relevance_blind_file checks it):
21 scene questions (an entry asked while another is named as the setting), 10 controls (the
named entry is the one asked), 12 names dropped in a chat frame, 11 comparisons (the second in
`also`), the descriptions (4-12, 13-35, 40-70 words), the chat questions, then 50 off-topic rows
(20 comparisons of an entry's word with an everyday thing, 15 entry words in another sense, 15
plain other-field questions). test33 is held out: its shapes' totals are printed, never its
rows; --misses lists dev25's only.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.slice_shapes import band, by_block, print_by_shape  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case  # noqa: E402

SETS = ("relevance_blind53.tsv", "relevance_blind54.tsv")
TUNING = {"dev25"}
BLOCKS = (("a scene", 21), ("a control", 10), ("b dropped", 12), ("c compares", 11))
OFF_TOPIC = (("o vs", 20), ("o sense", 15), ("o plain", 15))
BANDS = ((12, "d 4-12w"), (35, "d 13-35w"), (70, "d 40-70w"))


def shaped(cases: list[Case]) -> list[Case]:
    """The set's rows with their block as kind (off-topic blocks as `<slice>/<block>` slices,
    since the report counts off-topic rows by slice)."""
    out = by_block(cases, BLOCKS)
    for case in cases[len(out) : -50]:
        kind = band(case, BANDS) if case.kind == "description" else "e chat"
        out.append(replace(case, kind=kind))
    return out + by_block(cases[-50:], OFF_TOPIC, off_topic=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list dev25's misses by shape")
    args = parser.parse_args()
    index = SearchIndex.build(load_glossary())
    print_by_shape(index, SETS, lambda _, cases: shaped(cases), TUNING, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
