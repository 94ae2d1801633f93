"""What a long message's riders cost its pass (task speed74): the tuning rows of 250+ characters
(held-out slices skipped before a query is read) searched once with `--code` (main before
speed74, whose clause path still embeds the riders), each pass that carries clauses recorded,
then replayed with its riders and without them, alternated, best of `--rounds` (CPU time). Prints
the passes with riders, their rows, p50/p90/p99 of each and the median ratio; last line JSON.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/speed74_riders.py --code /tmp/main [--rounds 3]
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
    parser.add_argument("--code", type=Path, required=True, help="a checkout before speed74")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path[:0] = [str(args.code.resolve()), str(ROOT / "bench")]
    import numpy as np

    from bot.glossary import load_glossary
    from bot.search import SearchIndex
    from bot.search.relevance import load_cases

    report = __import__("relevance_report")  # after `bot`, as embed_cost does
    queries = [
        case.query
        for name in report.SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in report.HELD_OUT
        and not case.slice.startswith("test")
        and len(case.query) >= 250
    ]
    index = SearchIndex.build(tuple(load_glossary()))
    assert index.semantic is not None
    encoder = index.semantic.encoder
    real = encoder.encode_queries
    passes: list[tuple[list[str], list[str]]] = []

    def kept(texts, max_tokens=64, fit=False, uncut=()):  # type: ignore[no-untyped-def]
        if uncut and len(texts) > 1:
            passes.append((list(texts), list(uncut)))
        return real(texts, max_tokens, fit=fit, uncut=uncut)

    encoder.encode_queries = kept  # type: ignore[method-assign]
    for query in queries:
        index.search(query)
    encoder.encode_queries = real  # type: ignore[method-assign]
    ragged = encoder._forward_ragged
    laid: list[int] = []

    def counted(batch: list[list[int]]) -> object:
        laid.append(sum(len(ids) for ids in batch))
        return ragged(batch)

    encoder._forward_ragged = counted  # type: ignore[method-assign]
    rows = []
    for texts, uncut in passes:  # each pass's rows with and without its riders
        laid.clear()
        real(texts, fit=True, uncut=uncut)
        real(texts[:1], fit=True, uncut=uncut)
        rows.append(tuple(laid))
    encoder._forward_ragged = ragged  # type: ignore[method-assign]
    best = np.full((len(passes), 2), np.inf)
    for _ in range(args.rounds):
        for n, (texts, uncut) in enumerate(passes):
            for k, riding in enumerate((texts, texts[:1])):
                start = time.process_time()
                real(riding, fit=True, uncut=uncut)
                best[n, k] = min(best[n, k], time.process_time() - start)
    ms = best * 1000
    result = {
        "long_rows": len(queries),
        "passes_with_riders": len(passes),
        "rows_with": int(np.median([r[0] for r in rows])) if rows else 0,
        "rows_without": int(np.median([r[1] for r in rows])) if rows else 0,
        **{
            f"{name}_p{p}_ms": round(float(np.percentile(ms[:, k], p)), 2)
            for k, name in enumerate(("with", "without"))
            for p in (50, 90, 99)
        },
        "median_ratio": round(float(np.median(ms[:, 1] / ms[:, 0])), 3),
    }
    for key, value in result.items():
        print(f"  {key:<22} {value}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
