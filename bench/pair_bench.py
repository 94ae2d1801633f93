"""The cost of pair36's rule (`SearchIndex._pair_offered`: a question's meaning card between near
neighbours that the words only one of the two uses tell the other way becomes an offer): search
latency on the tuning questions, with and without it in the same process.

    .venv/bin/python bench/pair_bench.py

Without it is main's search (the method returns its result unchanged). The two variants alternate
three times; each latency is a query's best CPU time (`process_time`) over its variant's rounds,
as the machine is shared. Held-out rows are never read. The last line is one JSON object:
p50/p90/p99 in ms of each variant and their ratios, over all tuning questions and over those the
rule looks at (a semantic card with a runner-up).
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
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.index import SearchIndex as Index  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from relevance_report import HELD_OUT, SETS  # noqa: E402

ROUNDS = 3


def tuning_questions() -> list[str]:
    return [
        case.query
        for name in SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in HELD_OUT and not case.slice.startswith("test")
        if case.kind == "question"
    ]


def main() -> int:
    index = SearchIndex.build(tuple(load_glossary()))
    queries = tuple(tuning_questions())
    rule = Index._pair_offered
    looked: set[int] = set()
    current = [0]

    def watched(self: Index, result: SearchResult, *args: object) -> SearchResult:
        looked.add(current[0])
        return rule(self, result, *args)  # type: ignore[arg-type]

    def unchanged(self: Index, result: SearchResult, *args: object) -> SearchResult:
        looked.add(current[0])
        return result

    best = {"main": [float("inf")] * len(queries), "pair": [float("inf")] * len(queries)}
    index.search("warm up the encoder")
    for _ in range(ROUNDS):
        for variant in ("main", "pair"):
            Index._pair_offered = watched if variant == "pair" else unchanged  # type: ignore[method-assign]
            times = best[variant]
            for i, query in enumerate(queries):
                current[0] = i
                start = time.process_time()
                index.search(query)
                times[i] = min(times[i], time.process_time() - start)
    Index._pair_offered = rule  # type: ignore[method-assign]

    def figures(rows: list[int]) -> dict[str, object]:
        percentiles = {
            variant: {
                q: round(float(np.percentile(np.array([t[i] for i in rows]) * 1000, q)), 3)
                for q in (50, 90, 99)
            }
            for variant, t in best.items()
        }
        ratio = {q: round(percentiles["pair"][q] / percentiles["main"][q], 3) for q in (50, 90, 99)}
        return {"rows": len(rows), **percentiles, "ratio": ratio}

    every = figures(list(range(len(queries))))
    print(json.dumps({"all": every, "looked_at": figures(sorted(looked))}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
