"""The cost of agree33's short agreement (`fusion.short_agreed`, `SearchIndex._short_described`:
a description of 4 to 19 words whose description stage's clear first is the meaning's first,
unless the everyday check would judge it): search latency on the tuning rows of that length,
the rows the rule can touch, with and without it in the same process.

    .venv/bin/python bench/short_bench.py

Without it is main's search: `_short_described` answers None, so no short text is agreed on.
The two variants alternate three times; each latency is a query's best CPU time (`process_time`)
over its variant's rounds, as the machine is shared. Held-out rows are never read. The last line
is one JSON object: p50/p90/p99 in ms of each variant and their ratios.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.fusion import LONG_WORDS, MIN_WORDS  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from relevance_report import HELD_OUT, SETS  # noqa: E402

ROUNDS = 3


def short_tuning_queries() -> list[str]:
    queries: list[str] = []
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice in HELD_OUT or case.slice.startswith("test"):
                continue
            if MIN_WORDS < len(case.query.split()) < LONG_WORDS:
                queries.append(case.query)
    return queries


def main() -> int:
    index = SearchIndex.build(tuple(load_glossary()))
    queries = short_tuning_queries()
    agreement = SearchIndex._short_described
    best = {"main": [float("inf")] * len(queries), "agreement": [float("inf")] * len(queries)}
    index.search("warm up the encoder")
    for _ in range(ROUNDS):
        for variant in ("main", "agreement"):
            SearchIndex._short_described = (  # type: ignore[method-assign]
                agreement if variant == "agreement" else lambda *_, **__: None
            )
            times = best[variant]
            for i, query in enumerate(queries):
                start = time.process_time()
                index.search(query)
                times[i] = min(times[i], time.process_time() - start)
    SearchIndex._short_described = agreement  # type: ignore[method-assign]
    percentiles = {
        variant: {
            q: round(float(np.percentile(np.array(times) * 1000, q)), 2) for q in (50, 90, 99)
        }
        for variant, times in best.items()
    }
    ratio = {
        q: round(percentiles["agreement"][q] / percentiles["main"][q], 3) for q in (50, 90, 99)
    }
    print(json.dumps({"rows": len(queries), **percentiles, "ratio": ratio}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
