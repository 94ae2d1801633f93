"""dev19's figures by the shape each row was written in (task "qdata54"): the question shapes,
the description kinds and the off-topic shapes that `tests/search/relevance_blind41.md` gives by
row ranges, each counted as `bench/relevance_report.py` counts a kind.

    OPENBLAS_NUM_THREADS=1 python bench/dev19_shapes.py [--lexical]

dev19 is a tuning slice: its rows may be read. Rows are numbered from 1 after the header, as in
the `.md`.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.slice_shapes import shapes_main  # noqa: E402
from bot.search.relevance import Case  # noqa: E402

# (first row, last row, shape): relevance_blind41.md's table of question shapes, then its
# off-topic ranges; descriptions 1-151 are the same entries in the same order as questions.
QUESTION_SHAPES = (
    (152, 182, "q A fillers"),
    (183, 212, "q B pasted"),
    (213, 242, "q C statement"),
    (243, 272, "q D subject"),
    (273, 302, "q E mentioned"),
)
OFF_TOPIC_SHAPES = (
    (303, 312, "off fillers"),
    (313, 322, "off pasted"),
    (323, 330, "off statement"),
    (331, 334, "off subject"),
    (335, 339, "off mentioned"),
    (340, 342, "off fillers"),
)
# Description kind by position (relevance_blind41.md): (position div 3) mod 3.
DESCRIPTION_KINDS = ("desc purpose", "desc half-name", "desc define")


def _named(ranges: tuple[tuple[int, int, str], ...], row: int) -> str:
    return next(name for first, last, name in ranges if first <= row <= last)


def relabelled(cases: list[Case]) -> list[Case]:
    """dev19's cases with the shape as the kind (questions, descriptions) or as the slice
    (off-topic rows, whose kind the report needs to count them as off-topic)."""
    out: list[Case] = []
    for row, case in enumerate(cases, start=1):
        if case.kind == "description":
            out.append(replace(case, kind=DESCRIPTION_KINDS[((row - 1) // 3) % 3]))
        elif case.kind == "question":
            out.append(replace(case, kind=_named(QUESTION_SHAPES, row)))
        else:
            out.append(replace(case, slice=_named(OFF_TOPIC_SHAPES, row)))
    return out


def main() -> int:
    return shapes_main("tests/search/relevance_blind41.tsv", "dev19", 342, relabelled)


if __name__ == "__main__":
    raise SystemExit(main())
