"""A long message's encoder passes with and without speed76 (its vector the mean of its clauses',
no pass of its own: `index.WHOLE_FROM_CLAUSES`), replayed in one process (bench/speed75_passes.py's
way): the tuning rows of `--min-chars` (250) or more (held-out slices skipped before a query is
read) are searched once with the switch off and once on, every `Encoder._forward_ragged` batch
kept; then each search's passes are replayed through `_forward_ragged`, the two sides alternated
row by row, best of `--rounds` CPU times (`process_time`) a search. Prints rows a pass and each
side's p50/p90/p99 ms (a search's passes summed), the ratios, and the median per-search ratio.
The last line is one JSON object.

    OPENBLAS_NUM_THREADS=1 python bench/speed76_cost.py [--min-chars 250] [--rounds 3]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-chars", type=int, default=250)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    import numpy as np

    import bot.search.index as index_module
    from bot.glossary import load_glossary
    from bot.search import SearchIndex
    from bot.search.relevance import load_cases

    report = __import__("relevance_report")
    queries = [
        case.query
        for name in report.SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in report.HELD_OUT
        and case.slice != "calib"
        and not case.slice.startswith("test")
        and len(case.query) >= args.min_chars
    ]
    index = SearchIndex.build(tuple(load_glossary()))
    assert index.semantic is not None
    encoder = index.semantic.encoder
    ragged = encoder._forward_ragged
    kept: list[list[list[int]]] = []

    def keeping(batch: list[list[int]]) -> object:
        kept.append([list(ids) for ids in batch])
        return ragged(batch)

    encoder._forward_ragged = keeping  # type: ignore[method-assign]
    sides: dict[bool, list[list[list[list[int]]]]] = {False: [], True: []}
    for query in queries:
        for switch in (False, True):
            index_module.WHOLE_FROM_CLAUSES = switch
            kept.clear()
            index.search(query)
            sides[switch].append(list(kept))
    encoder._forward_ragged = ragged  # type: ignore[method-assign]
    changed = [i for i in range(len(queries)) if sides[False][i] != sides[True][i]]
    best = {s: np.full(len(changed), np.inf) for s in sides}
    for round_ in range(args.rounds):
        for n, i in enumerate(changed):
            order = (False, True) if (n + round_) % 2 == 0 else (True, False)
            for switch in order:
                start = time.process_time()
                for batch in sides[switch][i]:
                    ragged(batch)
                best[switch][n] = min(best[switch][n], time.process_time() - start)
    out: dict[str, object] = {"rows": len(queries), "searches_changed": len(changed)}
    for switch, name in ((False, "before"), (True, "after")):
        rows = np.array([sum(len(ids) for b in sides[switch][i] for ids in b) for i in changed])
        ms = best[switch] * 1000
        out[name] = {
            "rows_p50": int(np.median(rows)),
            "rows_max": int(rows.max()),
            **{f"p{p}_ms": round(float(np.percentile(ms, p)), 2) for p in (50, 90, 99)},
        }
    ratio = best[True] / best[False]
    out["median_ratio"] = round(float(np.median(ratio)), 3)
    b, a = out["before"], out["after"]
    assert isinstance(b, dict)
    assert isinstance(a, dict)
    out["p99_ratio"] = round(a["p99_ms"] / b["p99_ms"], 3)
    for key, value in out.items():
        print(f"  {key:<18} {value}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
