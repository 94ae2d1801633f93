"""The what-if of setting75's two new frames in `query.mechanism_setting` (a doer owning a trick,
"vllm's memory trick"; the place "how does it ..." is asked in, "in vllm, how does it serve ..."),
through bench/step_whatif.py: `SearchIndex._mechanism_setting_offered` with main's reading (part72's
frames alone, `as_main`) against the checkout's, over the rows writing "trick"-like words or
"in ... how does/do/did/can/would it".

    OPENBLAS_NUM_THREADS=1 python bench/setting75_trick_rows_changed.py [--slices ...]

The frames failed ship rule v3 on held out and were reverted: run it on commit f398f130, where
they stand (after the revert both sides read main's frames and no row changes).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.search.index as index_module
from bench.step_whatif import main
from bot.search import SearchIndex, SearchResult
from bot.search.index import NamesIn
from bot.search.query import _HOW_DOES, _POINTED_PART, _WORKS_OUT, COMPARING, COUNTED_TAIL

MAY_TOUCH = re.compile(
    r"\b(?:trick|tricks|secret|secrets|technique|techniques|mechanism)\b"
    r"|\bin\b.*\bhow (?:does|do|did|can|would) it\b"
)
STEP = SearchIndex._mechanism_setting_offered


def main_reading(before: str, after: str) -> bool:
    """`query.mechanism_setting` as main has it (part72's frames)."""
    if not COMPARING.isdisjoint(f"{before} {after}".split()):
        return False
    if _HOW_DOES.search(before[-COUNTED_TAIL:]) and _WORKS_OUT.match(after):
        return True
    return _POINTED_PART.search(before) is not None or _POINTED_PART.search(after) is not None


def as_main(
    index: SearchIndex,
    result: SearchResult,
    similar: Sequence[tuple[int, float]],
    names_in: NamesIn,
) -> SearchResult:
    """The step as main has it: the same step reading main's frames."""
    mine = index_module.mechanism_setting
    index_module.mechanism_setting = main_reading
    try:
        return STEP(index, result, similar, names_in)
    finally:
        index_module.mechanism_setting = mine


if __name__ == "__main__":
    main("_mechanism_setting_offered", MAY_TOUCH, as_main)
