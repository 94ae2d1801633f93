"""What task long71's clause vote costs: every tuning row of 250 characters or more searched with
the clauses read (`fusion.CLAUSED_CHARS` as shipped) and without (the cut out of reach), the two
alternated query by query in one process so load drift falls on both; a latency is a query's best
CPU time (`process_time`) over `--rounds` replays. Held-out slices are skipped before a query is
read. The last line is one JSON object.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/long71_cost.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import bot.search.index as index_module  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402

SHIPPED = index_module.CLAUSED_CHARS


def best_cpu(index: SearchIndex, query: str, rounds: int, claused: bool) -> float:
    index_module.CLAUSED_CHARS = SHIPPED if claused else 10**9
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        index.search(query)
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    queries = [
        c.query
        for name in SETS
        for c in load_cases(ROOT / "tests" / "search" / name)
        if c.slice not in HELD_OUT and c.slice != "calib" and len(c.query) >= SHIPPED
    ]
    index = SearchIndex.build(load_glossary())
    index.search("warm up the encoder weights")
    with_, without = [], []
    for query in queries:
        without.append(best_cpu(index, query, args.rounds, claused=False))
        with_.append(best_cpu(index, query, args.rounds, claused=True))
    figures = {
        name: {
            "p50": round(float(np.percentile(times, 50)), 2),
            "p90": round(float(np.percentile(times, 90)), 2),
            "p99": round(float(np.percentile(times, 99)), 2),
        }
        for name, times in (("without_clauses_ms", without), ("with_clauses_ms", with_))
    }
    ratio = float(np.median(np.array(with_) / np.array(without)))
    print(json.dumps({"rows": len(queries), **figures, "median_ratio": round(ratio, 2)}))


if __name__ == "__main__":
    main()
