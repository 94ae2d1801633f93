"""dev24 and test32 (relevance_blind51.md / 52.md) by shape: totals only.

    OPENBLAS_NUM_THREADS=1 python bench/blind70_shapes.py [--misses]

The files are in shape order (the .md files say so and test_relevance_blind_file checks it):
descriptions, then one question per described entry, then 28 compounds, then 50 off-topic rows
(20 other-field comparisons with an entry's word, 15 entry words in another sense, 15 plain).
Descriptions split by length band (4-12, 13-35, 40-70 words). Questions take blind69_shapes.py's
shapes (compares, misspelt, names, names another, names nothing). Compounds: "c moves" (the
block's first 13 rows) where the head moves the answer to another entry (only that entry counts:
the named one is not in `also`, so its card is a wrong card), "c stays" where the named entry
stays right, "c off" where the head leaves the glossary. test32 is held out: its shapes' totals are printed, never its rows; --misses lists
dev24's only.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from blind68_shapes import names_of  # noqa: E402
from blind69_shapes import other_names, reshape  # noqa: E402

from bench.slice_shapes import band, by_block, print_by_shape  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case  # noqa: E402

SETS = ("relevance_blind51.tsv", "relevance_blind52.tsv")
TUNING = {"dev24"}
COMPOUNDS = 28
COMPOUNDS_MOVED = 13  # the block's first 13 rows: the head moves the answer
OFF_TOPIC = (("o vs", 20), ("o sense", 15), ("o plain", 15))
BANDS = ((12, "d 4-12w"), (35, "d 13-35w"), (70, "d 40-70w"))


def shaped(cases: list[Case], names: dict[str, set[str]], named: dict[str, set[str]]) -> list[Case]:
    """The set's rows with their shape as kind (off-topic shapes as `<slice>/<shape>` slices,
    since the report counts off-topic rows by slice)."""
    entries = sum(1 for case in cases if case.kind == "description")
    described, asked = cases[:entries], cases[entries : 2 * entries]
    compounds, off_topic = cases[2 * entries : 2 * entries + COMPOUNDS], cases[-50:]
    out = [replace(c, kind=band(c, BANDS)) for c in described]
    out += [reshape(case, names, named) for case in asked]
    for place, case in enumerate(compounds):
        if case.expected is None:
            out.append(replace(case, slice=f"{case.slice}/c off"))
        elif place < COMPOUNDS_MOVED:
            out.append(replace(case, kind="c moves"))
        else:
            out.append(replace(case, kind="c stays"))
    return out + by_block(off_topic, OFF_TOPIC, off_topic=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list dev24's misses by shape")
    args = parser.parse_args()
    glossary = load_glossary()
    names = names_of(glossary)
    named = {entry.id: other_names(entry.id, entry.title) for entry in glossary}
    index = SearchIndex.build(glossary)
    print_by_shape(index, SETS, lambda _, cases: shaped(cases, names, named), TUNING, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
