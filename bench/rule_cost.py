"""One harness for what one search rule (a `SearchIndex` method) costs on the path it runs: the
whole search with the rule against the rule stubbed out, in the same process, rounds interleaved
(either first in turn) and each query's best of `ROUNDS` replays (the machine is shared). The
benches of single rules (passing37, passing41, none40, offtopic41) are thin callers of
`rule_cost`."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402

ROUNDS = 5


def probe_queries(*names: str) -> list[str]:
    """The query column of probe files in tests/search (comments and blank lines skipped)."""
    return [
        line.split("\t")[1]
        for name in names
        for line in (ROOT / "tests" / "search" / name).read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]


def rule_cost(
    method: str,
    queries: Sequence[str],
    stub: Callable[..., Any],
    looks_at: Callable[[SearchResult], bool] | None = None,
    owner: type = SearchIndex,
) -> dict[str, Any]:
    """Each query's best time in ms with `<owner>.<method>` (a `SearchIndex` method unless
    another class is given) and with `stub` in its place; `looks_at` (of the answer without the
    rule) picks the queries the rule really reads, whose ratio is given apart from the rest's."""
    index = SearchIndex.build(load_glossary(), semantic=True)
    rule = getattr(owner, method)
    best: dict[str, list[float]] = {"with": [], "without": []}
    looked: list[bool] = []
    try:
        for query in queries:
            index.search(query)  # warm: the encoder's first pass is no query's cost
            setattr(owner, method, stub)
            looked.append(looks_at is None or looks_at(index.search(query)))
            times = {"with": float("inf"), "without": float("inf")}
            for round_ in range(ROUNDS):
                for name in ("with", "without")[:: 1 if round_ % 2 else -1]:
                    setattr(owner, method, rule if name == "with" else stub)
                    started = time.perf_counter()
                    index.search(query)
                    times[name] = min(times[name], time.perf_counter() - started)
            for name, seconds in times.items():
                best[name].append(seconds * 1000)
    finally:
        setattr(owner, method, rule)

    def ratio(kept: Sequence[int]) -> float | None:
        without = sum(best["without"][i] for i in kept)
        return round(sum(best["with"][i] for i in kept) / without, 3) if without else None

    everyone = range(len(queries))
    return {
        "queries": len(queries),
        "looked_at": sum(looked),
        "median_ms_with": round(statistics.median(best["with"]), 3),
        "median_ms_without": round(statistics.median(best["without"]), 3),
        "total_ratio": ratio(everyone),
        "ratio_looked_at": ratio([i for i in everyone if looked[i]]),
        "ratio_rest": ratio([i for i in everyone if not looked[i]]),
    }


def report(row: dict[str, Any], queries: str, looked_at: str | None = None) -> None:
    """The row in three lines, then as one JSON object (the last line)."""
    print(f"{row['queries']} {queries}, each its best of {ROUNDS}")
    print(f"  median {row['median_ms_with']} ms with the rule, {row['median_ms_without']} without")
    print(f"  total ratio with / without: {row['total_ratio']}")
    if looked_at is not None:
        print(
            f"  {row['looked_at']} {looked_at}: ratio {row['ratio_looked_at']}; "
            f"the rest {row['ratio_rest']}"
        )
    print(json.dumps(row))


def no_change(self: SearchIndex, result: SearchResult, *args: object) -> SearchResult:
    """A stub for a rule that takes a result and returns it, changed or not."""
    return result


def nothing(*args: object, **kwargs: object) -> None:
    """A stub for a rule that returns None where it does not apply."""
