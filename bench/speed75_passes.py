"""The encoder's long passes replayed alone, to compare ways of running them (task speed75).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/speed75_passes.py dump FILE [--min-chars 250]
    OPENBLAS_NUM_THREADS=1 [OPENBLAS_CORETYPE=X] .venv/bin/python bench/speed75_passes.py \
        time FILE [--rounds 3] [--vectors OUT.npy]

`dump` searches the tuning rows of `--min-chars` or more (held-out slices skipped before a query
is read) with this checkout's bot and saves every encoder pass's token ids (`_forward_ragged`'s
batch) to FILE (JSON). `time` replays each saved pass through `Encoder._forward_ragged`, best of
`--rounds` CPU times (`process_time`), and prints the passes' rows and p50/p90/p99 ms; with
`--vectors` it saves the passes' vectors, so runs under different OpenBLAS kernels
(OPENBLAS_CORETYPE) can be compared bit for bit. The last line is one JSON object.
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


def dump(path: Path, min_chars: int) -> dict[str, object]:
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
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
        and len(case.query) >= min_chars
    ]
    index = SearchIndex.build(tuple(load_glossary()))
    assert index.semantic is not None
    encoder = index.semantic.encoder
    ragged = encoder._forward_ragged
    passes: list[list[list[int]]] = []

    def kept(batch: list[list[int]]) -> object:
        passes.append([list(ids) for ids in batch])
        return ragged(batch)

    encoder._forward_ragged = kept  # type: ignore[method-assign]
    for query in queries:
        index.search(query)
    path.write_text(json.dumps(passes))
    return {"rows": len(queries), "passes": len(passes)}


def timed(path: Path, rounds: int, vectors: Path | None) -> dict[str, object]:
    sys.path[:0] = [str(ROOT)]
    import numpy as np

    from bot.search.semantic.encoder import shared_encoder

    passes = json.loads(path.read_text())
    encoder = shared_encoder()
    best = np.full(len(passes), np.inf)
    out = []
    for round_ in range(rounds):
        for n, batch in enumerate(passes):
            start = time.process_time()
            got = encoder._forward_ragged(batch)
            best[n] = min(best[n], time.process_time() - start)
            if round_ == 0:
                out.append(got)
    if vectors is not None:
        np.save(vectors, np.concatenate(out))
    rows = np.array([sum(len(ids) for ids in batch) for batch in passes])
    ms = best * 1000
    long_ = rows >= 100
    return {
        "coretype": os.environ.get("OPENBLAS_CORETYPE", "-"),
        "passes": len(passes),
        "rows_p50": int(np.median(rows)),
        "rows_max": int(rows.max()),
        **{f"p{p}_ms": round(float(np.percentile(ms, p)), 2) for p in (50, 90, 99)},
        "long_passes": int(long_.sum()),
        "long_p50_ms": round(float(np.median(ms[long_])), 2) if long_.any() else 0.0,
        "total_ms": round(float(ms.sum()), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("dump", "time"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--min-chars", type=int, default=250)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--vectors", type=Path)
    args = parser.parse_args()
    if args.mode == "dump":
        result = dump(args.file, args.min_chars)
    else:
        result = timed(args.file, args.rounds, args.vectors)
    for key, value in result.items():
        print(f"  {key:<14} {value}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
