"""What the shape scripts share (bench/dev19_shapes.py, bench/dev20_shapes.py, and the blind
pairs' bench/blind68_shapes.py to blind73_shapes.py): a slice's figures with each row relabelled
by the shape it was written in, counted as `bench/relevance_report.py` counts a kind."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import replace
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


def band(case: Case, bands: Sequence[tuple[int, str]]) -> str:
    """The first of `bands` ((most words, name), shortest first) that holds the row's text."""
    return next(name for top, name in bands if len(case.query.split()) <= top)


def by_block(
    cases: Sequence[Case], blocks: Sequence[tuple[str, int]], off_topic: bool = False
) -> list[Case]:
    """The first rows of `cases` relabelled by their block ((name, rows) in file order): as kind,
    or for off-topic blocks as a `<slice>/<block>` slice, since the report counts those by
    slice."""
    out: list[Case] = []
    start = 0
    for block, count in blocks:
        for case in cases[start : start + count]:
            out.append(
                replace(case, slice=f"{case.slice}/{block}")
                if off_topic
                else replace(case, kind=block)
            )
        start += count
    return out


def print_by_shape(
    index: SearchIndex,
    sets: Iterable[str],
    shaped: Callable[[str, list[Case]], list[Case]],
    tuning: Container[str],
    misses: bool,
) -> None:
    """Each of a blind pair's `sets` (tests/search files) relabelled by `shaped` (given the
    file's name and rows), its figures by shape; with `misses` the misses of the `tuning`
    slices' shapes too (never a held-out slice's rows)."""
    for name in sets:
        reports = evaluate_slices(index, shaped(name, load_cases(ROOT / "tests/search" / name)))
        print(f"== {name}")
        print(format_sliced(reports))
        if misses:
            for part, report in reports.items():
                if part.split("/")[0] in tuning:
                    print(f"-- misses, {part}")
                    print("\n".join(f"  {miss}" for miss in report.misses))
