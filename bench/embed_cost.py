"""What a search costs over every tuning row, and how many texts it embeds: the rules that embed
a second text (a clause, the rest without a name, the text without its framing) are where the
semantic stage's tail comes from.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/embed_cost.py [--code DIR] [--rounds 2]
        [--sample N --seed S] [--min-chars N]

Reads the queries of the tuning slices of tests/search/relevance*.tsv (held-out slices are
skipped before a query is read) and searches each with the bundled glossary; a latency is the
query's best CPU time (`process_time`) over `--rounds` replays, as the machine is shared.
`--code DIR` searches with the `bot` package of another checkout (`git archive COMMIT | tar -x
-C DIR`) over this checkout's rows: run it beside a run of this checkout to compare in the same
minutes. Prints p50/p90/p99/max, the searches by texts embedded and by encoder passes (count,
median ms), and which code asked for each text past a search's first ("[same pass]": embedded
in one pass with the search's first, `Encoder.encode_queries`); `--tail N` lists the N slowest
searches with each pass's token rows per text. `--sample N` searches a fixed random N of the
rows (`--seed`, the same rows for every `--code`), for when the machine is too loaded for all;
`--min-chars N` only the rows of N characters or more (250: the clause path's, task speed74).
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent


def _caller() -> str:
    """The search functions (outside the encoder) that asked for an embedding, innermost first."""
    frame = sys._getframe(2)
    chain: list[str] = []
    while frame is not None and len(chain) < 3:
        code = frame.f_code
        if "search" in Path(code.co_filename).parts and "semantic" not in code.co_filename:
            chain.append(f"{Path(code.co_filename).stem}.{code.co_name}")
        frame = frame.f_back
    return " < ".join(chain)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose bot/ searches")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tail", type=int, default=0, help="list the N slowest searches")
    parser.add_argument("--sample", type=int, default=0, help="search a random N of the rows")
    parser.add_argument("--seed", type=int, default=0, help="which random N (with --sample)")
    parser.add_argument("--min-chars", type=int, default=0, help="only rows this long or more")
    args = parser.parse_args()
    sys.path[:0] = [str(args.code.resolve()), str(ROOT / "bench")]
    import numpy as np

    from bot.glossary import load_glossary
    from bot.search import SearchIndex
    from bot.search.relevance import load_cases

    # after `bot`: relevance_report puts this checkout first on the path and imports its bot
    report = importlib.import_module("relevance_report")
    held_out, sets = report.HELD_OUT, report.SETS
    queries = [
        case.query
        for name in sets
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice not in held_out
        and not case.slice.startswith("test")
        and len(case.query) >= args.min_chars
    ]
    if args.sample:  # in the rows' order, so a sample replays like the whole set
        picked = sorted(random.Random(args.seed).sample(range(len(queries)), args.sample))
        queries = [queries[i] for i in picked]
    index = SearchIndex.build(tuple(load_glossary()))
    assert index.semantic is not None
    encoder = index.semantic.encoder
    asked: list[str] = []
    passes: list[int] = []
    rows_by_pass: list[list[int]] = []  # each text's token rows, for --tail
    if hasattr(encoder, "encode_queries"):  # every pass goes through it (encode_query too)
        encode_many, ragged = encoder.encode_queries, encoder._forward_ragged

        def spied_many(texts: list[str], *args: object, **kwargs: object) -> object:
            who = _caller()
            asked.extend([who] + [f"{who} [same pass]"] * (len(texts) - 1))
            passes.append(len(texts))
            return encode_many(texts, *args, **kwargs)

        def spied_ragged(batch: list[list[int]]) -> object:
            rows_by_pass.append([len(ids) for ids in batch])
            return ragged(batch)

        encoder.encode_queries = spied_many  # type: ignore[method-assign]
        encoder._forward_ragged = spied_ragged  # type: ignore[method-assign]
    else:  # a checkout from before speed50: one text a pass
        encode = encoder.encode_query

        def spied(text: str) -> object:
            asked.append(_caller())
            passes.append(1)
            if args.tail:  # inside the timing: only where asked for
                rows_by_pass.append([len(encoder.tokenizer.encode(text, 64))])
            return encode(text)

        encoder.encode_query = spied  # type: ignore[method-assign]
    index.search("warm up the encoder")
    best = [float("inf")] * len(queries)
    embeds = [0] * len(queries)
    forwards = [0] * len(queries)
    embedded: list[list[list[int]]] = [[] for _ in queries]
    extra: Counter[str] = Counter()
    for round_ in range(args.rounds):
        for i, query in enumerate(queries):
            asked.clear()
            passes.clear()
            rows_by_pass.clear()
            start = time.process_time()
            index.search(query)
            best[i] = min(best[i], time.process_time() - start)
            embeds[i] = len(asked)
            forwards[i] = len(passes)
            embedded[i] = list(rows_by_pass)
            if round_ == 0:
                extra.update(asked[1:])
    ms = np.array(best) * 1000
    counts = np.array(embeds)
    by_passes = np.array(forwards)
    result: dict[str, object] = {
        "code": str(args.code.resolve()),
        "rows": len(queries),
        "sample_seed": args.seed if args.sample else None,
        "min_chars": args.min_chars,
        "mean_ms": round(float(ms.mean()), 2),
        **{f"p{p}_ms": round(float(np.percentile(ms, p)), 2) for p in (50, 90, 99)},
        "max_ms": round(float(ms.max()), 2),
        "by_texts_embedded": {
            str(k): {
                "searches": int((counts == k).sum()),
                "p50_ms": round(float(np.median(ms[counts == k])), 2),
            }
            for k in sorted(set(embeds))
        },
        "by_encoder_passes": {
            str(k): {
                "searches": int((by_passes == k).sum()),
                "p50_ms": round(float(np.median(ms[by_passes == k])), 2),
            }
            for k in sorted(set(forwards))
        },
        "extra_embeddings": dict(extra.most_common()),
    }
    sampled = f" (a sample, seed {args.seed})" if args.sample else ""
    print(f"{len(queries)} tuning rows{sampled}, CPU ms best of {args.rounds}, code {args.code}")
    keys = ("mean_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms")
    for key in (*keys, "by_texts_embedded", "by_encoder_passes"):
        print(f"  {key:<18} {result[key]}")
    print("  texts embedded past a search's first, by who asked:")
    for who, n in extra.most_common():
        print(f"    {n:5d}  {who}")
    if args.tail:
        print(f"  the {args.tail} slowest searches: ms, token rows per pass (+ within a pass):")
        for i in sorted(range(len(queries)), key=lambda i: -ms[i])[: args.tail]:
            rows = " | ".join("+".join(map(str, counts)) for counts in embedded[i])
            print(f"    {ms[i]:6.2f}  {rows:<14} {queries[i][:90]!r}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
