"""dev26 and test34 (relevance_blind55.md / 56.md) by shape: totals only.

    OPENBLAS_NUM_THREADS=1 python bench/blind72_shapes.py [--misses]

The files are in block order (the .md files say so and test_relevance_blind_file checks it):
the everyday questions naming nothing of their entry, those naming it plainly, 12 purpose
questions, the descriptions (6-20, 21-39, 40-70 words), then 50 off-topic rows (20 entry words
in another field's sense, 15 plain other-field questions, 15 far fields). test34 is held out:
its shapes' totals are printed, never its rows; --misses lists dev26's only.
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

# Each set with its everyday questions' counts: (naming nothing of the entry, naming it).
SETS = {"relevance_blind55.tsv": (47, 49), "relevance_blind56.tsv": (49, 51)}
TUNING = {"dev26"}
PURPOSE = 12
OFF_TOPIC = (("o sense", 20), ("o plain", 15), ("o far", 15))
BANDS = ((20, "c 6-20w"), (39, "c 21-39w"), (70, "c 40-70w"))


def shaped(cases: list[Case], unnamed: int, named: int) -> list[Case]:
    """The set's rows with their block as kind (off-topic blocks as `<slice>/<block>` slices,
    since the report counts off-topic rows by slice)."""
    blocks = (("a unnamed", unnamed), ("a named", named), ("b purpose", PURPOSE))
    out = by_block(cases, blocks)
    out += [replace(case, kind=band(case, BANDS)) for case in cases[len(out) : -50]]
    return out + by_block(cases[-50:], OFF_TOPIC, off_topic=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list dev26's misses by shape")
    args = parser.parse_args()
    index = SearchIndex.build(load_glossary())
    print_by_shape(index, SETS, lambda name, cases: shaped(cases, *SETS[name]), TUNING, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
