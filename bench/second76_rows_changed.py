"""The what-if of `SearchIndex._asked_outright_carded`'s short-text part (task second76,
`_asked_later_carded`), through bench/step_whatif.py: a text shorter than `OUTRIGHT_CHARS` whose
one clause asks outright what a name is gets that name's card in place of another card. Every
row writing "what" is searched (the clauses all ask "what"); main's step (`as_main`) leaves a
short text's result as it is.

    OPENBLAS_NUM_THREADS=1 python bench/second76_rows_changed.py [--slices ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.search import SearchIndex, SearchResult
from bot.search.index import OUTRIGHT_CHARS

STEP = SearchIndex._asked_outright_carded


def as_main(index: SearchIndex, result: SearchResult, text: str, overlay: object) -> SearchResult:
    """`_asked_outright_carded` as main has it (before second76): a short text left alone."""
    if len(text) < OUTRIGHT_CHARS:
        return result
    return STEP(index, result, text, overlay)  # type: ignore[arg-type]


if __name__ == "__main__":
    main("_asked_outright_carded", re.compile(r"what"), as_main)
