"""The cost of `SearchIndex._describing_placed` (task passing41) on the path it runs:
questions through the whole search, the rule on against the rule stubbed out, in the same
process and rounds interleaved (the machine is shared: each query's best of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/passing41_bench.py

The queries are this task's probe rows (tests/search/passing41_probes.tsv): short questions
that write a name, in passing or asked outright, and the descriptions closed by "what's it
called" of tests/search/test_passing41.py, where the rule places names. The last line is one
JSON object.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402

ROUNDS = 5
PROBES = ROOT / "tests" / "search" / "passing41_probes.tsv"
DESCRIBED = [  # the rule's own shape: it finds names and places them
    "that tool people use for running gguf files on a macbook, what's it called again?",
    "stable diffusion 3 swapped classic diffusion for some straight-line flow matching trick, "
    "what is it?",
    "vram usage grows and grows as the conversation gets longer even for one user, what's "
    "eating it?",
]


def main() -> int:
    lines = PROBES.read_text(encoding="utf-8").splitlines()
    queries = [line.split("\t")[1] for line in lines if line and not line.startswith("#")]
    queries += DESCRIBED
    index = SearchIndex.build(load_glossary(), semantic=True)
    rule = SearchIndex._describing_placed
    best: dict[str, list[float]] = {"with": [], "without": []}
    for query in queries:
        index.search(query)  # warm: the encoder's first pass is no query's cost
        times: dict[str, float] = {"with": float("inf"), "without": float("inf")}
        for _ in range(ROUNDS):
            for name in ("with", "without"):
                SearchIndex._describing_placed = rule if name == "with" else _stub  # type: ignore[method-assign]
                started = time.perf_counter()
                index.search(query)
                times[name] = min(times[name], time.perf_counter() - started)
        for name, seconds in times.items():
            best[name].append(seconds * 1000)
    SearchIndex._describing_placed = rule  # type: ignore[method-assign]
    row = {
        "queries": len(queries),
        "median_ms_with": round(statistics.median(best["with"]), 3),
        "median_ms_without": round(statistics.median(best["without"]), 3),
        "total_ratio": round(sum(best["with"]) / sum(best["without"]), 3),
    }
    print(f"{row['queries']} questions, each its best of {ROUNDS}")
    print(f"  median {row['median_ms_with']} ms with the rule, {row['median_ms_without']} without")
    print(f"  total ratio with / without: {row['total_ratio']}")
    print(json.dumps(row))
    return 0


def _stub(*args: object, **kwargs: object) -> None:
    return None


if __name__ == "__main__":
    raise SystemExit(main())
