"""Server terms by meaning: what embedding a term costs, and what 2,000 of them add to a query.

    .venv/bin/python bench/term_meaning_bench.py [--sample 32] [--terms 2000]

Embedding: `--sample` made-up terms embedded as the bot does (two texts a term, batches of
`EMBED_BATCH`, one BLAS thread), next to the same texts in a process left at OpenBLAS's default
of a thread per core (how the bot ran before: the threads spin while they wait, and on a shared
or CPU-capped host that multiplied the cost). Per query: description queries against a server
with `--terms` terms, next to the bundled glossary alone in the same run. The server's vectors
there are random unit vectors written to the cache (embedding 4,000 texts takes minutes): what
is timed is the query's embedding and the scan, which do not depend on the vectors' values.
Each figure is the best of three (the machine is shared). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from terms_bench import best_of  # noqa: E402  (bench/ is this script's folder)

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.server_terms import ServerTerm  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.local import compile_local, with_vectors  # noqa: E402
from bot.search.semantic.term_vectors import (  # noqa: E402
    EMBED_BATCH,
    TERM_CACHE_FILE,
    TermVectors,
)
from bot.search.semantic.vectors import write_vectors  # noqa: E402

WORDS = (  # noqa: SIM905
    "ledger shipment rota badge console firmware pallet roster quota invoice sprint dock "
    "ticket beacon relay cargo crate shift vault token forge signal ember harbor lantern "
    "quarry meadow orbit prism ridge summit tundra valley willow zenith anchor bramble"
).split()
QUERIES = (
    "storing attention keys and values so they are not recomputed",
    "a small model drafts tokens and a big one checks them",
    "shrinking a model so it runs on a laptop",
    "the document the next person on call reads when the shift changes",
    "when the model makes things up that sound true",
)


def made_up_terms(count: int) -> list[ServerTerm]:
    rng = random.Random(12)
    return [
        ServerTerm(
            id=f"site-term-{n}",
            title=f"Site Term {n}",
            category="Fundamentals",
            definition="The " + " ".join(rng.choices(WORDS, k=rng.randint(40, 60))) + ".",
        )
        for n in range(count)
    ]


def per_query_ms(index: SearchIndex, queries: Sequence[str]) -> float:
    return 1000 * best_of(3, lambda: [index.search(q) for q in queries]) / len(queries)


def embed_with_default_threads(texts: Sequence[str]) -> float:
    """Seconds a text, embedded in a process with OpenBLAS's own thread count."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["OPENBLAS_NUM_THREADS"] = str(os.cpu_count() or 1)
    script = (
        "import json, sys, time\n"
        "from bot.search.semantic.encoder import Encoder\n"
        "texts = json.load(sys.stdin); encoder = Encoder(); encoder.encode(texts[:1])\n"
        "start = time.perf_counter(); encoder.encode(texts)\n"
        "print((time.perf_counter() - start) / len(texts))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(list(texts)),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> int:
    # Here, not at the top: `bot` sets one BLAS thread (as the bot runs) before numpy loads.
    import numpy as np

    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=32, help="terms embedded for real")
    parser.add_argument("--terms", type=int, default=2000, help="a server's terms, per query")
    args = parser.parse_args()
    bundled = load_glossary()
    base = SearchIndex.build(bundled)
    assert base.semantic is not None
    encoder = base.semantic.encoder
    encoder.encode(["warm the weights"])
    results: dict[str, float | int] = {"openblas_threads": int(os.environ["OPENBLAS_NUM_THREADS"])}

    # -- embedding, as the bot does it -------------------------------------------------------
    sample = made_up_terms(args.sample)
    with tempfile.TemporaryDirectory() as folder:
        vectors = TermVectors(encoder, Path(folder))
        local = compile_local(bundled, base, sample, {}, vectors=vectors)
        texts = [text for _, text in local.texts]
        start = time.perf_counter()
        for at in range(0, len(texts), EMBED_BATCH):
            vectors.embed(texts[at : at + EMBED_BATCH])
        per_term = (time.perf_counter() - start) / len(sample)
    query_s = best_of(3, lambda: encoder.encode_query(QUERIES[0]))
    spinning = embed_with_default_threads(texts[: 2 * min(8, len(sample))]) * 2
    results.update(
        embed_s_per_term=round(per_term, 3),
        embed_terms_per_s=round(1 / per_term, 2),
        term_in_queries=round(per_term / query_s, 1),  # a term costs this many query embeddings
        default_threads_s_per_term=round(spinning, 3),
        default_threads_ratio=round(spinning / per_term, 2),
        import_2000_minutes=round(2000 * per_term / 60, 1),
    )

    # -- a query against a server with --terms terms ------------------------------------------
    terms = made_up_terms(args.terms)
    with tempfile.TemporaryDirectory() as folder:
        vectors = TermVectors(encoder, Path(folder))
        lexical = compile_local(bundled, base, terms, {})
        rng = np.random.default_rng(12)
        fake = rng.standard_normal((len(lexical.texts), encoder.dimensions)).astype(np.float32)
        fake /= np.linalg.norm(fake, axis=1, keepdims=True)
        keys = [vectors.key(text) for _, text in lexical.texts]
        write_vectors(Path(folder), dict(zip(keys, fake, strict=True)), TERM_CACHE_FILE)
        start = time.perf_counter()
        local = with_vectors(lexical, vectors)
        attach_s = time.perf_counter() - start
        assert local.complete
        bundled_ms = per_query_ms(base, QUERIES)
        lexical_ms = per_query_ms(lexical.index, QUERIES)
        server_ms = per_query_ms(local.index, QUERIES)
    results.update(
        server_terms=len(terms),
        query_bundled_ms=round(bundled_ms, 2),
        query_server_words_only_ms=round(lexical_ms, 2),
        query_server_with_meaning_ms=round(server_ms, 2),
        query_ratio_to_bundled=round(server_ms / bundled_ms, 2),
        attach_vectors_s=round(attach_s, 3),
    )
    for key, value in results.items():
        print(f"{key:<32} {value}")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
