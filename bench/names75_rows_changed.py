"""The what-if of `SearchIndex._chat_names_spelled` (task names75), through bench/step_whatif.py:
the meaning reads a question's subject written run together ("kvcache") as the glossary spaces
it and a clipped alias ("temp", "ckpt") as its entry's title. The step changes a text only where
one word of it is such a name, so only the rows writing one of the keys it spells are searched.

    OPENBLAS_NUM_THREADS=1 python bench/names75_rows_changed.py [--slices dev28,test36] [--old]

`--old`: the old set (tests/search/relevance.tsv: names, typos, acronyms, plurals ...) in place
of the slices, its rows printed as a tuning slice's.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.step_whatif
from bench.relevance_report import ROOT
from bench.step_whatif import main
from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search.relevance import load_cases


def spelled_keys(index: SearchIndex) -> list[str]:
    """Every name key the step spells when it is the whole text: a word it may touch."""
    keys = []
    for key in index.names.keys:
        if not (key and key.isalnum()):
            continue
        hits = index.names.lookup(key)
        if any(index._chat_names_spelled(key, index._names_in, hit.entry) != key for hit in hits):
            keys.append(key)
    return keys


if __name__ == "__main__":
    if "--old" in sys.argv:
        sys.argv.remove("--old")
        old = ROOT / "tests/search/relevance.tsv"
        bench.step_whatif.every_case = lambda: load_cases(old)  # type: ignore[assignment]
    keys = spelled_keys(SearchIndex.build(load_glossary()))
    print("keys spelled", len(keys), " ".join(sorted(keys)), flush=True)
    main("_chat_names_spelled", re.compile(rf"\b(?:{'|'.join(map(re.escape, keys))})\b"))
