"""Another checkout's vectors against this one's, in one process (task cost72): every tuning row
of at least `--min-chars` characters (250 by default, the clause path's; 0 for every tuning row;
held-out slices are skipped before a query is read) searched with this checkout's code, the
search's encoder and `SemanticIndex._entry_cosines` swapped query by query between `--old`'s
(another checkout's `bot/search/semantic`, loaded as modules of their own) and this checkout's,
in alternating order, so that load drift falls on both; a latency is a search's best CPU time (`process_time`) over `--rounds` replays.
Also counts the searches whose vectors differ in any bit between the two. The last line is one
JSON object.

    mkdir /tmp/old && git archive main bot | tar -x -C /tmp/old
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cost72_ab.py --old /tmp/old
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402
from bot.search.semantic import SemanticIndex  # noqa: E402
from bot.search.semantic.encoder import MODEL_DIR, Encoder  # noqa: E402


def module_at(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path, required=True, help="the other checkout")
    parser.add_argument("--min-chars", type=int, default=250)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    queries = [
        c.query
        for name in SETS
        for c in load_cases(ROOT / "tests" / "search" / name)
        if c.slice not in HELD_OUT and c.slice != "calib" and len(c.query) >= args.min_chars
    ]
    index = SearchIndex.build(load_glossary())
    assert index.semantic is not None
    old = args.old / "bot/search/semantic"
    old_encoder = module_at(old / "encoder.py", "cost72_old_encoder").Encoder(MODEL_DIR)
    old_index = module_at(old / "__init__.py", "cost72_old_semantic").SemanticIndex
    encoders = {"old": old_encoder, "new": Encoder()}
    cosines = {"old": old_index._entry_cosines, "new": SemanticIndex._entry_cosines}
    vectors: dict[str, list[np.ndarray]] = {"old": [], "new": []}
    for name, encoder in encoders.items():
        encode_queries = encoder.encode_queries

        def kept(*a, _encode=encode_queries, _name=name, **k):  # type: ignore[no-untyped-def]
            found = _encode(*a, **k)
            vectors[_name].append(np.array(found, copy=True))
            return found

        encoder.encode_queries = kept  # type: ignore[method-assign]
        index.semantic.encoder = encoder
        index.search("warm up the encoder weights")
    times: dict[str, list[float]] = {"old": [], "new": []}
    differ = 0
    for n, query in enumerate(queries):
        best = {"old": float("inf"), "new": float("inf")}
        for round_ in range(args.rounds):
            for name in ("old", "new") if (n + round_) % 2 == 0 else ("new", "old"):
                index.semantic.encoder = encoders[name]
                SemanticIndex._entry_cosines = cosines[name]  # type: ignore[method-assign]
                vectors[name].clear()
                start = time.process_time()
                index.search(query)
                best[name] = min(best[name], time.process_time() - start)
        old, new = vectors["old"], vectors["new"]
        differ += len(old) != len(new) or any(
            a.tobytes() != b.tobytes() for a, b in zip(old, new, strict=False)
        )
        for name in best:
            times[name].append(best[name] * 1000)
    figures = {
        name: {f"p{p}": round(float(np.percentile(ms, p)), 2) for p in (50, 90, 99)}
        | {"max": round(max(ms), 2)}
        for name, ms in times.items()
    }
    ratio = np.array(times["new"]) / np.array(times["old"])
    print(
        f"{len(queries)} tuning rows of {args.min_chars}+ characters, best of {args.rounds}, "
        f"old {args.old}"
    )
    for name, values in figures.items():
        print(f"  {name}: {values}")
    print(f"  new / old: median {np.median(ratio):.3f}; searches whose vectors differ: {differ}")
    print(
        json.dumps(
            {
                "rows": len(queries),
                **figures,
                "median_ratio": round(float(np.median(ratio)), 3),
                "p99_ratio": round(figures["new"]["p99"] / figures["old"]["p99"], 3),
                "vectors_differ": differ,
            }
        )
    )


if __name__ == "__main__":
    main()
