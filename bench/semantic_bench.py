"""The semantic stage's cost: query latency (bundled and 100k entries), start-up with cached
vectors, installed size, next to the lexical stages' latency measured in the same run.

    .venv/bin/python bench/semantic_bench.py [--queries 300] [--tail]

Lexical queries are names, typos and acronyms from tests/search/relevance.tsv (the semantic stage
does not run for them); semantic queries are the blind set's dev-slice descriptions and
questions. At 100k entries the entry vectors are random unit vectors (embedding 100k texts takes
an hour on this machine): what is timed is the query's embedding and the scan, which do not
depend on the vectors' values. Each latency is a query's best of three replays (the machine is
shared). The last line is one JSON object. `--tail` first lists the slowest 2% of the semantic
queries by CPU time: tokens, texts embedded and what the embedding cost of it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# One BLAS thread, as the bot runs (bot/__init__.py); it must be set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.fusion import SEMANTIC_CANDIDATES  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402
from bot.search.semantic import SemanticIndex, default_cache_dir  # noqa: E402
from bot.search.semantic.encoder import MODEL_DIR, QUERY_TOKENS, Encoder  # noqa: E402
from bot.search.semantic.vectors import Vectors, entry_texts  # noqa: E402

ROUNDS = 3
LEXICAL_KINDS = {"exact", "case", "typo", "spacing", "plural", "acronym", "expansion"}


def timed(
    function: Callable[[str], object], queries: Sequence[str], clock: Callable[[], float]
) -> list[float]:
    best = [float("inf")] * len(queries)
    for _ in range(ROUNDS):
        for i, query in enumerate(queries):
            start = clock()
            function(query)
            best[i] = min(best[i], clock() - start)
    return [b * 1000 for b in best]


def wall_and_cpu(function: Callable[[str], object], queries: Sequence[str]) -> dict[str, float]:
    """Wall-clock and this process's CPU time: on a shared machine the wall clock also counts
    the time the neighbours held the cores."""
    wall = summary(timed(function, queries, time.perf_counter))
    cpu = summary(timed(function, queries, time.process_time))
    return {**wall, "cpu_p50": cpu["p50"], "cpu_p99": cpu["p99"]}


def summary(ms: list[float]) -> dict[str, float]:
    return {
        "p50": round(float(np.percentile(ms, 50)), 3),
        "p99": round(float(np.percentile(ms, 99)), 3),
    }


def print_tail(
    search: Callable[[str], object], encoder: Encoder, queries: Sequence[str], share: float = 0.02
) -> None:
    """The slowest `share` of `queries` by CPU time (best of ROUNDS), each with its tokens, the
    texts it embedded and their CPU time; the rest is the lexical stages, scan and fusion.
    Every pass goes through `encode_queries` (a search's second text may share its first's)."""
    encode = encoder.encode_queries
    spent: list[float] = []

    def timed_encode(texts: Sequence[str], *args: int, **kwargs: bool) -> Vectors:
        start = time.process_time()
        vectors = encode(texts, *args, **kwargs)
        spent.extend([time.process_time() - start] + [0.0] * (len(texts) - 1))
        return vectors

    encoder.encode_queries = timed_encode  # type: ignore[method-assign]
    rows = []
    try:
        for query in queries:
            runs = []
            for _ in range(ROUNDS):
                spent.clear()
                start = time.process_time()
                search(query)
                runs.append((time.process_time() - start, list(spent)))
            total, embeds = min(runs)
            rows.append((total * 1000, sum(embeds) * 1000, len(embeds), query))
    finally:
        del encoder.encode_queries
    rows.sort(reverse=True)
    print(f"slowest {share:.0%} of {len(rows)} semantic queries (CPU ms, best of {ROUNDS}):")
    for total, embedding, embeds, query in rows[: max(1, round(share * len(rows)))]:
        tokens = len(encoder.tokenizer.encode(query, QUERY_TOKENS))
        print(
            f"  {total:5.1f}  {tokens:2d} tokens  {embeds} embedded in {embedding:5.1f}"
            f"  rest {total - embedding:4.1f}  {query!r}"
        )


def folder_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--tail", action="store_true", help="list the slowest 2%% first")
    args = parser.parse_args()
    glossary = load_glossary()
    entries = tuple(glossary)

    start = time.perf_counter()
    semantic = SemanticIndex.build(entries, Encoder(), default_cache_dir())
    first_start = time.perf_counter() - start  # a start-up: the vectors cached or not
    start = time.perf_counter()
    semantic = SemanticIndex.build(entries, Encoder(), default_cache_dir())
    cached_start = time.perf_counter() - start
    assert semantic.embedded == 0, "the second start found every vector in the cache"
    encoder = semantic.encoder
    assert isinstance(encoder, Encoder)
    start = time.perf_counter()
    encoder.encode_query("warm up")
    weights_load = time.perf_counter() - start  # paid by the first query that needs meaning
    lexical_only = SearchIndex.build(entries, semantic=False)
    fused = SearchIndex.build(entries, semantic=semantic)

    old = load_cases(ROOT / "tests/search/relevance.tsv")
    names = [c.query for c in old if c.kind in LEXICAL_KINDS][: args.queries]
    blind = load_cases(ROOT / "tests/search/relevance_blind.tsv")
    meaning = [c.query for c in blind if c.slice == "dev" and c.expected][: args.queries]
    reached = [q for q in meaning if fused.search(q).strategy == "semantic"]
    if args.tail:
        print_tail(fused.search, encoder, meaning)

    results: dict[str, object] = {
        "lexical_before_ms": summary(timed(lexical_only.search, names, time.perf_counter)),
        "lexical_with_stage_ms": summary(timed(fused.search, names, time.perf_counter)),
        "semantic_bundled_ms": wall_and_cpu(fused.search, meaning),
        "semantic_decided_share": round(len(reached) / max(len(meaning), 1), 3),
    }
    rng = np.random.default_rng(12)
    big = rng.standard_normal((100_000, encoder.dimensions)).astype(np.float32)
    big /= np.linalg.norm(big, axis=1, keepdims=True)
    large = SemanticIndex(big, np.arange(100_000, dtype=np.int32), encoder, 0)
    results["semantic_100k_stage_ms"] = wall_and_cpu(
        lambda q: large.similar(q, SEMANTIC_CANDIDATES), meaning
    )
    texts = [text for entry in entries[:20] for text in entry_texts(entry)]
    start = time.perf_counter()
    encoder.encode(texts)  # what a start pays per text the cache and the shipped seed lack
    per_text = (time.perf_counter() - start) / len(texts)
    results.update(
        {
            "startup_cached_s": round(cached_start, 3),
            "first_query_weights_load_s": round(weights_load, 3),
            "first_start_s": round(first_start, 2),
            "uncached_embed_s_per_text": round(per_text, 3),
            "model_mb": round(folder_mb(MODEL_DIR), 1),
            "entries": len(entries),
            "vectors": len(semantic.vectors),
        }
    )
    for key, value in results.items():
        print(f"{key:<28} {value}")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
