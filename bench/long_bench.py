"""The cost of long29's agreement rule for long descriptions (`fusion.DESCRIBED_LEAD`: the
description stage's clear first agreeing with the meaning's first): search latency on the
tuning rows of 20 words or more, the rows the rule can touch, with and without it in the same
process.

    .venv/bin/python bench/long_bench.py [--past-names]

Without it is main's search: `DESCRIBED_LEAD` infinite, so no lexical pool is ever led by it.
With `--past-names` the two variants are long34's instead: the description stage's first read
past the names written in passing (`index._described_past_names`) or not, long29's rule in both.
The two variants alternate three times; each latency is a query's best CPU time (`process_time`)
over its variant's rounds, as the machine is shared. Held-out rows are never read. The last line
is one JSON object: p50/p90/p99 in ms of each variant and their ratios. (long27's clause reading,
timed with this script's first version at 3d33b61, was reverted.)
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

import bot.search.index as index_module  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.fusion import LONG_WORDS  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))

ROUNDS = 3


def long_tuning_queries() -> list[str]:
    queries: list[str] = []
    for case in tuning_cases():
        if case.slice.startswith("test"):
            continue
        if case.kind in ("description", "question") and len(case.query.split()) >= LONG_WORDS:
            queries.append(case.query)
    return queries


def _none(pool: object, query: str) -> None:
    return None


def main() -> int:
    index = SearchIndex.build(tuple(load_glossary()))
    queries = long_tuning_queries()
    past_names = "--past-names" in sys.argv[1:]
    lead = index_module.DESCRIBED_LEAD
    described = index_module._described_past_names
    best = {"main": [float("inf")] * len(queries), "agreement": [float("inf")] * len(queries)}
    index.search("warm up the encoder")
    for _ in range(ROUNDS):
        for variant in ("main", "agreement"):
            on = variant == "agreement"
            if past_names:
                index_module._described_past_names = described if on else _none  # type: ignore[assignment]
            else:
                index_module.DESCRIBED_LEAD = lead if on else float("inf")
            times = best[variant]
            for i, query in enumerate(queries):
                start = time.process_time()
                index.search(query)
                times[i] = min(times[i], time.process_time() - start)
    index_module.DESCRIBED_LEAD = lead
    index_module._described_past_names = described
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
