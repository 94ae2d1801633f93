"""What task long75's step (`SearchIndex._asked_outright_carded`) costs: search CPU time with and
without it, in one process, over the tuning rows of `OUTRIGHT_CHARS` or more characters (the
rows it reads; held-out rows are never read), long75's probes and hostile texts of up to 4,000
characters (60 clauses, a run of spaces, commas, many questions, a pasted log).

    OPENBLAS_NUM_THREADS=1 python bench/long75_cost.py

The two variants alternate three rounds; each query's time is its best CPU time
(`process_time`) over its variant's rounds, as the machine is shared. The last line is one JSON
object: p50/p90/p99/max in ms of each variant, and their ratios, per group."""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import every_case, shown_row_by_row  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.index import OUTRIGHT_CHARS  # noqa: E402

ROUNDS = 3
CHAT = "so the migration finally finished last night after three retries and a lot of coffee. "
NAMES = ["rag", "lora", "dpo", "gguf", "vllm", "cuda", "bm25", "mcp", "kv cache", "top-p"]
HOSTILE = [
    (CHAT * 46)[:3980] + " what is rag?",
    ", ".join(f"clause {n} about nothing much" for n in range(60))[:3990] + " what is gguf?",
    ("what is nothing here? " * 200)[:4000],
    " ".join(f"what is {n}?" for n in NAMES * 20)[:4000],
    "what is" + " " * 3990 + "rag?",
    ",".join(["x"] * 2000),
    "```\n" + "ERROR step 12 loss nan at layer 3: what is this\n" * 70 + "```\nwhat is a kv cache?",
    "**what** ||is|| ~~a~~ `kv` > # " * 130,
    " ".join(f"we use {n} and" for n in NAMES * 40)[:3990] + " what is mcp?",
]


def timed(index: SearchIndex, queries: list[str]) -> list[float]:
    out = []
    for q in queries:
        start = time.process_time()
        index.search(q)
        out.append((time.process_time() - start) * 1000)
    return out


def summary(ms: np.ndarray) -> dict[str, float]:
    return {
        "p50": round(float(np.percentile(ms, 50)), 2),
        "p90": round(float(np.percentile(ms, 90)), 2),
        "p99": round(float(np.percentile(ms, 99)), 2),
        "max": round(float(ms.max()), 2),
    }


def main() -> None:
    index = SearchIndex.build(load_glossary())
    rows = [
        c.query
        for c in every_case()
        if shown_row_by_row(c.slice) and len(c.query) >= OUTRIGHT_CHARS
    ]
    probes_file = ROOT / "tests" / "search" / "long75_probes.tsv"
    with probes_file.open(encoding="utf-8") as f:
        probes = [r[1] for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    groups = {"tuning": rows, "probes": probes, "hostile": HOSTILE}
    step = SearchIndex._asked_outright_carded

    def without(self, result, *rest):  # type: ignore[no-untyped-def]
        return result

    for q in probes + HOSTILE:  # warm caches
        index.search(q)
    best: dict[tuple[str, str], np.ndarray] = {}
    for _ in range(ROUNDS):
        for variant, fn in (("without", without), ("with", step)):
            SearchIndex._asked_outright_carded = fn  # type: ignore[method-assign]
            for name, queries in groups.items():
                ms = np.array(timed(index, queries))
                key = (name, variant)
                best[key] = ms if key not in best else np.minimum(best[key], ms)
    SearchIndex._asked_outright_carded = step  # type: ignore[method-assign]
    report: dict[str, object] = {}
    for name, queries in groups.items():
        a, b = summary(best[(name, "without")]), summary(best[(name, "with")])
        ratio = {k: round(b[k] / a[k], 3) if a[k] else None for k in a}
        report[name] = {"rows": len(queries), "without": a, "with": b, "ratio": ratio}
        print(name, len(queries), "without", a, "with", b, "ratio", ratio, flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
