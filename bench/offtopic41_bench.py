"""The cost of `SearchIndex._offered_off_field` (task offtopic41) on the path it runs: texts the
rest of the search answers with choices and no card, through the whole search, the rule on against
the rule stubbed out, in the same process and rounds interleaved (the machine is shared: each
query's best of `ROUNDS` replays).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/offtopic41_bench.py

The queries are this task's probe rows (tests/search/offtopic41_probes.tsv) and none40's
(none40_probes.tsv): loose descriptions, near-field off-topic texts. The last line is one JSON
object.
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
from bot.search import SearchIndex, SearchResult  # noqa: E402

ROUNDS = 5
PROBES = [
    ROOT / "tests" / "search" / name for name in ("offtopic41_probes.tsv", "none40_probes.tsv")
]


def main() -> int:
    queries = [
        line.split("\t")[1]
        for path in PROBES
        for line in path.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    index = SearchIndex.build(load_glossary(), semantic=True)
    rule = SearchIndex._offered_off_field
    best: dict[str, list[float]] = {"with": [], "without": []}
    reached: list[bool] = []  # the queries the rule looks at: choices and no card
    for query in queries:
        index.search(query)  # warm: the encoder's first pass is no query's cost
        SearchIndex._offered_off_field = _stub  # type: ignore[method-assign]
        found = index.search(query)
        reached.append(found.entry is None and bool(found.suggestions))
        times: dict[str, float] = {"with": float("inf"), "without": float("inf")}
        for round_ in range(ROUNDS):
            for name in ("with", "without")[:: 1 if round_ % 2 else -1]:  # either first in turn
                SearchIndex._offered_off_field = rule if name == "with" else _stub  # type: ignore[method-assign]
                started = time.perf_counter()
                index.search(query)
                times[name] = min(times[name], time.perf_counter() - started)
        for name, seconds in times.items():
            best[name].append(seconds * 1000)
    SearchIndex._offered_off_field = rule  # type: ignore[method-assign]

    def ratio(looked: bool) -> float:
        kept = [i for i, r in enumerate(reached) if r == looked]
        return round(sum(best["with"][i] for i in kept) / sum(best["without"][i] for i in kept), 3)

    row = {
        "queries": len(queries),
        "offered_without": sum(reached),
        "median_ms_with": round(statistics.median(best["with"]), 3),
        "median_ms_without": round(statistics.median(best["without"]), 3),
        "total_ratio": round(sum(best["with"]) / sum(best["without"]), 3),
        "ratio_offered": ratio(True),
        "ratio_rest": ratio(False),
    }
    print(f"{row['queries']} queries ({row['offered_without']} offered choices without it)")
    print(f"  median {row['median_ms_with']} ms with the rule, {row['median_ms_without']} without")
    print(f"  total ratio with / without: {row['total_ratio']}", end="; ")
    print(f"offered choices {row['ratio_offered']}, the rest {row['ratio_rest']}")
    print(json.dumps(row))
    return 0


def _stub(self: SearchIndex, result: SearchResult, *args: object) -> SearchResult:
    return result


if __name__ == "__main__":
    raise SystemExit(main())
