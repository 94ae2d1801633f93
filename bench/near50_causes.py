"""Every tuning row's answer with both stages' views of its first choice and of the right entry
(task near50: the wrong cards where no name is written, the card the description stage's or the
meaning's first and a near neighbour of the right entry; which signal tells them from the right
cards that stand the same way).

    python bench/near50_causes.py [--slices dev,calib,...] --out rows.jsonl

Tuning slices only (held-out slices are refused by `offer_causes.traced_cases`). One JSON line a
row that the meaning ran for: slice, kind, query, verdict (`offer_causes.row_verdict`), the card
or first offer, its strategy, the name asked about and the names written, the meaning's ten
(id, cosine, whether an asked-as phrasing or the description was the entry's nearest row), the
description stage's pool before the meaning was folded in, and the mean-vector closeness of the
meaning's first two. Nothing in `bot/search` changes for it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.offer_causes import first_choice, row_verdict, traced_cases, traced_start  # noqa: E402
from bot.search.semantic import SemanticIndex  # noqa: E402


def _trace_encoder(semantic: SemanticIndex) -> None:
    """Each encoder pass, an "encode" step of `offer_causes`' trace (beside the steps its `_wrap`
    records) with the vector of the pass's first text: the search embeds the message first and
    its asking clause in the same pass (`Encoder.encode_queries`, which `encode_query` calls)."""
    encode = semantic.encoder.encode_queries

    def traced_encode(texts, *args, **kwargs):  # type: ignore[no-untyped-def]
        vectors = encode(texts, *args, **kwargs)
        offer_causes.trace.append({"step": "encode", "vector": vectors[0]})
        return vectors

    semantic.encoder.encode_queries = traced_encode  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    args, slices, index = traced_start(parser)
    semantic = index.semantic
    assert semantic is not None
    _trace_encoder(semantic)
    ids = [e.id for e in index.entries]
    owners = np.asarray(semantic.owners)
    vectors = semantic.vectors
    # an entry's rows: its description first, then its asked-as phrasings (`entry_texts`)
    first_row = {int(o): int(np.flatnonzero(owners == o)[0]) for o in np.unique(owners)}
    means = {}
    for o in first_row:
        m = vectors[owners == o].mean(axis=0)
        means[o] = m / np.linalg.norm(m)

    def closeness(a: int, b: int) -> float:
        return round(float(means[a] @ means[b]), 4) if a in means and b in means else 0.0

    def best_row(vector: Any, entry: int) -> str:
        rows = np.flatnonzero(owners == entry)
        if not len(rows):
            return "-"
        scores = vectors[rows] @ vector.reshape(-1)
        return "desc" if int(rows[int(np.argmax(scores))]) == first_row[entry] else "asked"

    with args.out.open("w", encoding="utf-8") as out:
        for case, result, steps in traced_cases(index, slices, offer_causes.trace):
            fused = next((s for s in steps if s["step"] == "fuse"), None)
            encoded = next((s for s in steps if s["step"] == "encode"), None)
            if fused is None or encoded is None:
                continue
            vector = encoded["vector"]
            similar = fused["similar"]
            before = sorted(fused["before"].items(), key=lambda i: -i[1].score)
            first, strategy = first_choice(result)
            asked = fused.get("asked_about")
            row = {
                "slice": case.slice,
                "kind": case.kind,
                "query": case.query,
                "expected": case.expected,
                "also": list(case.also),
                "verdict": row_verdict(case, result),
                "card": result.entry.id if result.entry else None,
                "first": first,
                "strategy": strategy,
                "offers": [s.id for s in result.suggestions[:5]],
                "asked": ids[asked[0]] if asked else None,
                "written": sorted(ids[e] for e in fused.get("written", ())),
                "long": bool(fused.get("long_description")),
                "described_first": ids[d]
                if (d := fused.get("described_first")) is not None
                else None,
                "question": bool(fused.get("question")),
                "words": len(case.query.split()),
                "meaning": [(ids[e], round(c, 4), best_row(vector, e)) for e, c in similar],
                "lexical": [(ids[e], round(c.score, 2), c.strategy) for e, c in before[:6]],
                "close12": closeness(similar[0][0], similar[1][0]) if len(similar) > 1 else 0.0,
                "related12": (len(similar) > 1 and index._related(similar[0][0], similar[1][0])),
            }
            out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
