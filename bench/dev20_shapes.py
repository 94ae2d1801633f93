"""dev20's figures by the shape each row was written in (task "blind57"): the description kinds
and the question lengths that `tests/search/relevance_blind43.md` gives by position, and its
"difference between" questions, each counted as `bench/relevance_report.py` counts a kind.

    OPENBLAS_NUM_THREADS=1 python bench/dev20_shapes.py [--lexical]

dev20 is a tuning slice: its rows may be read. test28 (held out) has the same shapes; it is
never split here.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.slice_shapes import shapes_main  # noqa: E402
from bot.search.relevance import Case  # noqa: E402

ENTRIES = 151  # descriptions, then the questions over the same entries in the same order
# Description kind by position p (relevance_blind43.md): (p div 3) mod 3.
DESCRIPTION_KINDS = ("desc analogy", "desc scene", "desc half-name")


def relabelled(cases: list[Case]) -> list[Case]:
    """dev20's on-topic cases with their shape as the kind (off-topic rows left as they are)."""
    out: list[Case] = []
    for row, case in enumerate(cases):
        if case.kind == "description":
            out.append(replace(case, kind=DESCRIPTION_KINDS[(row // 3) % 3]))
        elif case.kind == "question" and case.also:
            out.append(replace(case, kind="q difference"))
        elif case.kind == "question":
            # the entry whose description is short (p mod 3 == 0) got the long, rambling question
            long = (row - ENTRIES) % 3 == 0
            out.append(replace(case, kind="q long" if long else "q short"))
        else:
            out.append(case)
    return out


def main() -> int:
    return shapes_main("tests/search/relevance_blind43.tsv", "dev20", 362, relabelled)


if __name__ == "__main__":
    raise SystemExit(main())
