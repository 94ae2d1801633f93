"""Where the CPU time of a long message's search goes (task cost72): every tuning row of
fusion.CLAUSED_CHARS characters or more (held-out slices skipped before a query is read)
searched `--rounds` times, and each part's CPU time (`process_time`) summed over the best round
of each row: the search, its encoder passes, within them the tokenizer, the embeddings, each
layer's four weight products, attention, GELU and layer norm, and outside them the clause split
and `_entry_cosines`. The encoder's steps are timed by a copy of `encoder._layer` with clocks
between its steps (the same numpy calls). The last line is one JSON object.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cost72_profile.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import bot.search.index as index_module  # noqa: E402
import bot.search.semantic as semantic_module  # noqa: E402
import bot.search.semantic.encoder as encoder_module  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import load_cases  # noqa: E402

clock = time.process_time
spent: Counter[str] = Counter()
rows_seen: list[int] = []


def timed(name: str, function):  # type: ignore[no-untyped-def]
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += clock() - start

    return wrapper


def layer_timed(layer, heads, flat, used, blocks, blocked):  # type: ignore[no-untyped-def]
    """encoder._layer's steps (a copy: keep it in step), with a clock between them."""
    t = clock()
    dim = flat.shape[1]
    size = dim // heads
    qkv = flat @ layer.qkv
    qkv += layer.qkv_bias
    t, spent["gemm qkv"] = clock(), spent["gemm qkv"] + clock() - t
    context = np.empty_like(flat)
    context[used:] = 0.0
    for start, batch, length in blocks:
        rows = slice(start, start + batch * length)
        qkv5 = qkv[rows].reshape(batch, length, 3, heads, size).transpose(2, 0, 3, 1, 4)
        query, key, value = qkv5[0], qkv5[1], qkv5[2]
        scores = query @ key.transpose(0, 1, 3, 2)
        scores *= np.float32(1.0 / np.sqrt(size))
        if blocked is not None:
            scores += blocked
        across = np.ascontiguousarray(scores.swapaxes(-1, -2))
        scores -= np.maximum.reduce(across, axis=-2, keepdims=True).swapaxes(-1, -2)
        np.exp(scores, out=scores)
        scores /= np.add.reduce(scores, axis=-1, keepdims=True)
        heads_last = context[rows].reshape(batch, length, heads, size)
        np.matmul(scores, value, out=heads_last.transpose(0, 2, 1, 3))
    t, spent["attention"] = clock(), spent["attention"] + clock() - t
    attended = context @ layer.out
    attended += flat
    attended += layer.out_bias
    t, spent["gemm out"] = clock(), spent["gemm out"] + clock() - t
    attended = encoder_module._layer_norm_(attended, *layer.norm1)
    t, spent["layer norm"] = clock(), spent["layer norm"] + clock() - t
    inner = attended @ layer.up_rows.T
    inner += layer.up_bias
    t, spent["gemm up"] = clock(), spent["gemm up"] + clock() - t
    inner = encoder_module._gelu_(inner)
    t, spent["gelu"] = clock(), spent["gelu"] + clock() - t
    out = inner @ layer.down
    out += attended
    out += layer.down_bias
    t, spent["gemm down"] = clock(), spent["gemm down"] + clock() - t
    out = encoder_module._layer_norm_(out, *layer.norm2)
    spent["layer norm"] += clock() - t
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    queries = [
        c.query
        for name in SETS
        for c in load_cases(ROOT / "tests" / "search" / name)
        if c.slice not in HELD_OUT
        and c.slice != "calib"
        and len(c.query) >= index_module.CLAUSED_CHARS
    ]
    index = SearchIndex.build(load_glossary())
    index.search("warm up the encoder weights")
    encoder = index.semantic.encoder  # type: ignore[union-attr]
    encoder.tokenizer.encode = timed("tokenizer", encoder.tokenizer.encode)
    encoder.encode_queries = timed("encoder pass (all)", encoder.encode_queries)
    ragged = encoder._forward_ragged

    def counted(batch):  # type: ignore[no-untyped-def]
        rows_seen.append(sum(len(ids) for ids in batch))
        return ragged(batch)

    encoder._forward_ragged = counted
    encoder_module._layer = layer_timed
    index_module.clauses_of = timed("clause split", index_module.clauses_of)
    semantic_module.SemanticIndex._entry_cosines = timed(
        "_entry_cosines", semantic_module.SemanticIndex._entry_cosines
    )
    totals: Counter[str] = Counter()
    pass_rows: list[int] = []
    for query in queries:
        best: Counter[str] | None = None
        for _ in range(args.rounds):
            spent.clear()
            rows_seen.clear()
            start = clock()
            index.search(query)
            spent["search (all)"] = clock() - start
            if best is None or spent["search (all)"] < best["search (all)"]:
                best, seen = Counter(spent), list(rows_seen)
        assert best is not None
        totals.update(best)
        pass_rows.extend(seen)
    layers = sum(totals[k] for k in totals if k.startswith("gemm") or k in ("attention", "gelu"))
    layers += totals["layer norm"]
    totals["encoder: rest (embeddings, pooling, python)"] = (
        totals["encoder pass (all)"] - layers - totals["tokenizer"]
    )
    totals["search: outside the encoder"] = totals["search (all)"] - totals["encoder pass (all)"]
    whole = totals["search (all)"]
    print(
        f"{len(queries)} tuning rows of {index_module.CLAUSED_CHARS}+ characters, best of "
        f"{args.rounds}; encoder passes {len(pass_rows)}, rows a pass p50 "
        f"{np.median(pass_rows):.0f} max {max(pass_rows)}"
    )
    for name, value in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(
            f"  {name:<45} {value * 1000 / len(queries):7.2f} ms a row  {100 * value / whole:5.1f}%"
        )
    print(json.dumps({k: round(v * 1000 / len(queries), 3) for k, v in totals.items()}))


if __name__ == "__main__":
    main()
