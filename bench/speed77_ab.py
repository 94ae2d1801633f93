"""What one search's memory of its own vectors saves (task speed77, `bot/search/remembered.py`):
every tuning row searched with the memory (the bot) and without it (main's way: a later pass
runs again a text an earlier pass of the same search ran), the two alternated query by query in
one process, so both see the same minutes of this shared machine.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/speed77_ab.py [--sample 2500 --seed 72]
        [--rounds 2] [--min-chars N]

Reads the queries of the tuning slices of tests/search/relevance*.tsv as bench/embed_cost.py
does (held-out slices skipped before a query is read); a latency is the query's best CPU time
(`process_time`) over `--rounds` replays of each variant, the variants' order swapped each
round. Prints, for both, p50/p90/p99/max and the encoder's token rows, the searches the memory
changes (fewer rows) with their median ratio, the ratios new/old, and whether every search's
answer was the same; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--sample", type=int, default=0, help="search a random N of the rows")
    parser.add_argument("--seed", type=int, default=0, help="which random N (with --sample)")
    parser.add_argument("--min-chars", type=int, default=0, help="only rows this long or more")
    args = parser.parse_args()
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    import numpy as np

    from bot.glossary import load_glossary
    from bot.search import SearchIndex
    from bot.search.relevance import load_cases
    from bot.search.semantic import encoder as encoder_module

    report = importlib.import_module("relevance_report")
    queries = [
        case.query
        for name in report.SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in report.HELD_OUT
        and not case.slice.startswith("test")
        and len(case.query) >= args.min_chars
    ]
    if args.sample:
        picked = sorted(random.Random(args.seed).sample(range(len(queries)), args.sample))
        queries = [queries[i] for i in picked]
    index = SearchIndex.build(tuple(load_glossary()))
    assert index.semantic is not None
    encoder = index.semantic.encoder
    remembering = encoder_module.known_vectors
    rows = [0]
    ragged = encoder._forward_ragged

    def counted(batch: list[list[int]]) -> object:
        rows[0] += sum(len(ids) for ids in batch)
        return ragged(batch)

    encoder._forward_ragged = counted  # type: ignore[method-assign]

    def forgetting() -> None:
        return None

    variants = {"old": forgetting, "new": remembering}
    index.search("warm up the encoder")
    best = {name: [float("inf")] * len(queries) for name in variants}
    made = {name: [0] * len(queries) for name in variants}
    same = 0
    for round_ in range(args.rounds):
        order = list(variants) if round_ % 2 == 0 else list(variants)[::-1]
        for i, query in enumerate(queries):
            answers = {}
            for name in order:
                encoder_module.known_vectors = variants[name]  # type: ignore[assignment]
                rows[0] = 0
                start = time.process_time()
                answers[name] = index.search(query)
                best[name][i] = min(best[name][i], time.process_time() - start)
                made[name][i] = rows[0]
            same += round_ == 0 and answers["old"] == answers["new"]
    encoder_module.known_vectors = remembering  # type: ignore[assignment]
    ms = {name: np.array(best[name]) * 1000 for name in variants}
    result: dict[str, object] = {"rows": len(queries), "sample_seed": args.seed or None}
    for name in variants:
        result[name] = {
            **{f"p{p}_ms": round(float(np.percentile(ms[name], p)), 2) for p in (50, 90, 99)},
            "max_ms": round(float(ms[name].max()), 2),
            "encoder_rows": int(sum(made[name])),
        }
    fewer = [i for i in range(len(queries)) if made["new"][i] < made["old"][i]]
    ratios = [ms["new"][i] / ms["old"][i] for i in fewer]
    result["ratio_new_old"] = {
        key: round(float(np.percentile(ms["new"], p) / np.percentile(ms["old"], p)), 3)
        for key, p in (("p50", 50), ("p90", 90), ("p99", 99))
    }
    result["searches_with_fewer_rows"] = len(fewer)
    result["their_median_ratio"] = round(float(np.median(ratios)), 3) if ratios else None
    result["their_rows"] = {
        "old": int(sum(made["old"][i] for i in fewer)),
        "new": int(sum(made["new"][i] for i in fewer)),
    }
    result["answers_same"] = f"{same} of {len(queries)}"
    print(f"{len(queries)} tuning rows, CPU ms best of {args.rounds}, load {os.getloadavg()}")
    for key, value in result.items():
        print(f"  {key:<26} {value}")
    slow = sorted(fewer, key=lambda i: -ms["old"][i])[:15]
    print("  the slowest searches the memory changes: old -> new ms, rows old -> new")
    for i in slow:
        print(
            f"    {ms['old'][i]:6.2f} -> {ms['new'][i]:6.2f}  {made['old'][i]:4d} -> "
            f"{made['new'][i]:4d}  {queries[i][:70]!r}"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
