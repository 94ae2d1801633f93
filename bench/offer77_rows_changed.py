"""The what-if of offer77's rule in `SearchIndex._unless_everyday` (an acronym or coinage written
with its version keeps its card: `query.written_with_version`), through bench/step_whatif.py:
only a text with a digit can write a version, so only those rows are searched, with the step as
this branch has it and as main had it (the same step with the version never read)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.search.index as index_module
from bench.step_whatif import main
from bot.search import SearchIndex

MAY_TOUCH = re.compile(r"\d")
STEP = SearchIndex._unless_everyday


def without(self, *args):  # type: ignore[no-untyped-def]
    """`_unless_everyday` as main has it: no name is read as written with a version."""
    kept = index_module.written_with_version
    index_module.written_with_version = lambda *_: False
    try:
        return STEP(self, *args)
    finally:
        index_module.written_with_version = kept


if __name__ == "__main__":
    main("_unless_everyday", MAY_TOUCH, without)
