"""The what-if of one search's memory of its own vectors (task speed77, `bot/search/remembered.py`)
over every row of every slice, in step_whatif's shape: each row is searched once with the memory
(the bot), and where a later encoder pass ran (the memory could serve it a text an earlier pass
of the same search had run) searched again without it (main's way), comparing the answer (status,
card, strategy, score, offers, other side) and every vector each encoder pass returned, to the
bit; the card outcome is counted as step_whatif counts it. Tuning rows that change are printed,
held-out ones counted. Where a later pass ran, both ways are also timed (best of `--rounds`,
alternated); elsewhere the search is the same work either way, timed once for both, so the
tuning rows' CPU p50/p90/p99 before and after come from one run (the last line, JSON).

    OPENBLAS_NUM_THREADS=1 python bench/speed77_rows_changed.py [--slices dev27,test35]
        [--part 1/2 --save a.json] ... ; --merge a.json b.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def run(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from bench.relevance_report import every_case, shown_row_by_row
    from bench.step_whatif import outcome
    from bot.glossary import load_glossary
    from bot.search import SearchIndex, remembered
    from bot.search.everyday import _setting_vectors
    from bot.search.semantic import encoder as encoder_module
    from bot.search.senses import _sense_vectors

    only = set(filter(None, args.slices.split(",")))
    cases = [c for c in every_case() if not only or c.slice in only]
    part, parts = (int(n) for n in args.part.split("/"))
    # in a fixed shuffled order, so a run stopped early has searched a sample of every slice
    cases = random.Random(77).sample(cases, len(cases))[part - 1 :: parts][args.skip :]
    index = SearchIndex.build(load_glossary())
    assert index.semantic is not None
    encoder = index.semantic.encoder
    passes: list[Any] = []
    served = [0]
    queries = encoder.encode_queries

    def kept(*a: Any, **k: Any) -> Any:
        vectors = queries(*a, **k)
        passes.append(np.array(vectors, copy=True))
        return vectors

    real_known = remembered.known_vectors

    def watching() -> Any:
        known = real_known()
        if known:  # a later pass of the search: the memory may serve it
            served[0] += 1
        return known

    # the senses' and everyday settings' vectors, embedded once an index by the first search
    # that reads them: made before, so no row's passes count them
    _sense_vectors(index.semantic)
    _setting_vectors(index.semantic)
    encoder.encode_queries = kept  # type: ignore[method-assign]
    index.search("warm up the encoder")
    out: dict[str, Any] = {"rows": 0, "fired": Counter(), "changed": [], "tuning_ms": []}
    for n, case in enumerate(cases):
        if args.save and n % 200 == 199:  # what a stopped run has done is kept
            args.save.write_text(json.dumps(out | {"fired": dict(out["fired"])}))
        encoder_module.known_vectors = watching  # type: ignore[assignment]
        passes.clear()
        served[0] = 0
        start = time.process_time()
        ruled = index.search(case.query)
        took = time.process_time() - start
        with_memory = list(passes)
        tuning = shown_row_by_row(case.slice)
        out["rows"] += 1
        if not served[0]:  # one pass, nothing to remember from: main's work exactly
            if tuning:
                out["tuning_ms"].append((took, took))
            continue
        encoder_module.known_vectors = lambda: None  # type: ignore[assignment]
        passes.clear()
        start = time.process_time()
        plain = index.search(case.query)
        plain_took = time.process_time() - start
        without = list(passes)
        same_vectors = len(without) == len(with_memory) and all(
            np.array_equal(a, b) for a, b in zip(without, with_memory, strict=True)
        )
        old_ms, new_ms = [plain_took], [took]
        for round_ in range(args.rounds):
            for way in ("old", "new") if round_ % 2 else ("new", "old"):
                encoder_module.known_vectors = (  # type: ignore[assignment]
                    real_known if way == "new" else lambda: None
                )
                start = time.process_time()
                index.search(case.query)
                (new_ms if way == "new" else old_ms).append(time.process_time() - start)
        encoder_module.known_vectors = real_known  # type: ignore[assignment]
        if tuning:
            out["tuning_ms"].append((min(old_ms), min(new_ms)))
        group = "tuning" if tuning else "held"
        out["fired"][group] += 1
        before, after = outcome(case, plain), outcome(case, ruled)
        if plain != ruled or not same_vectors or before != after:
            out["changed"].append(
                [
                    group,
                    case.slice,
                    case.query[:80] if tuning else "",
                    before,
                    after,
                    plain == ruled,
                    same_vectors,
                ]
            )
    out["fired"] = dict(out["fired"])
    return out


def report(outs: list[dict[str, Any]]) -> None:
    import numpy as np

    rows = sum(o["rows"] for o in outs)
    fired: Counter[str] = Counter()
    for o in outs:
        fired.update(o["fired"])
    changed = [c for o in outs for c in o["changed"]]
    times = np.array([t for o in outs for t in o["tuning_ms"]]) * 1000
    print(f"rows searched {rows}; the memory served a text on {dict(fired)}")
    for group, part, text, before, after, same, vectors in changed:
        if group == "tuning":
            print("tuning", part, repr(text), before, "->", after, "same answer", same, vectors)
    held = Counter((c[3], c[4]) for c in changed if c[0] == "held")
    print("held out changed:", {f"{a}->{b}": n for (a, b), n in held.items()})
    result: dict[str, Any] = {
        "rows": rows,
        "fired": dict(fired),
        "answers_or_vectors_differ": {
            "tuning": sum(c[0] == "tuning" for c in changed),
            "held": sum(c[0] == "held" for c in changed),
        },
        "outcomes_differ": sum(c[3] != c[4] for c in changed),
        "load": os.getloadavg(),
    }
    if len(times):
        old, new = times[:, 0], times[:, 1]
        result["tuning_cpu_ms"] = {
            way: {f"p{p}": round(float(np.percentile(t, p)), 2) for p in (50, 90, 99)}
            | {"max": round(float(t.max()), 2)}
            for way, t in (("old", old), ("new", new))
        }
        result["tuning_p99_ratio"] = round(
            float(np.percentile(new, 99) / np.percentile(old, 99)), 3
        )
        served = old != new
        result["served_searches_median_ratio"] = (
            round(float(np.median(new[served] / old[served])), 3) if served.any() else None
        )
    print(json.dumps(result))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slices", default="", help="only these slices (default: all)")
    parser.add_argument("--part", default="1/1", help="this share of the rows, e.g. 2/3")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip", type=int, default=0, help="the part's first N rows (done)")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--merge", type=Path, nargs="*")
    args = parser.parse_args()
    if args.merge:
        report([json.loads(p.read_text()) for p in args.merge])
        return 0
    out = run(args)
    if args.save:
        args.save.write_text(json.dumps(out))
    report([out])
    return 0


if __name__ == "__main__":
    sys.exit(main())
