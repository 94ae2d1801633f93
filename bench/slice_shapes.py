"""What the shape scripts share (bench/dev19_shapes.py, bench/dev20_shapes.py): a tuning slice's
figures with each row relabelled by the shape it was written in, counted as
`bench/relevance_report.py` counts a kind."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case, evaluate_slices, format_sliced, load_cases  # noqa: E402


def shapes_main(
    blind_set: str, slice_name: str, rows: int, relabelled: Callable[[list[Case]], list[Case]]
) -> int:
    """Print the figures of `slice_name`'s `rows` rows of `blind_set` (a path from the
    repository's root), each relabelled; `--lexical` without the semantic stage."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--lexical", action="store_true", help="without the semantic stage")
    args = parser.parse_args()
    cases = [c for c in load_cases(ROOT / blind_set) if c.slice == slice_name]
    assert len(cases) == rows, len(cases)
    index = SearchIndex.build(load_glossary(), semantic=not args.lexical)
    print(format_sliced(evaluate_slices(index, relabelled(cases))))
    return 0
