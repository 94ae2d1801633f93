"""Does a change to how the vectors are computed leave every vector and every answer as it was
(task cost72)? Searches the relevance rows of every slice (`--min-chars`: only rows at least that
long, 250 by default, the clause path's; 0 for every row) with the `bot` package of `--code`
(this checkout by default), keeping each search's answer (status, card, strategy, score, the
offers with their scores, the other side) and the vectors of every encoder pass it made; and
embeds every bundled entry text afresh (`Encoder.encode`, a server's terms' path). `--save FILE`
writes them; `--against FILE` compares with a saved run and prints COUNTS only, per group
(tuning, held out): rows whose vectors differ in any bit, the largest difference, rows whose
answer differs, rows whose outcome (right / wrong / off-topic card, right among the first
three) differs. Held-out rows are compared by the program and never printed. The last line is
one JSON object.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cost72_identical.py --code /tmp/main --save base.npz
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cost72_identical.py --against base.npz
    .venv/bin/python bench/cost72_identical.py --against base.npz --saved new.npz  # no search
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot runs; before numpy loads

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose bot/ searches")
    parser.add_argument("--min-chars", type=int, default=250)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--against", type=Path)
    parser.add_argument("--saved", type=Path, help="compare this saved run, searching nothing")
    args = parser.parse_args()
    sys.path[:0] = [str(args.code.resolve()), str(ROOT / "bench")]
    import numpy as np

    from bot.glossary import load_glossary
    from bot.search import SearchIndex
    from bot.search.relevance import load_cases
    from bot.search.semantic.vectors import entry_texts

    report = __import__("relevance_report")  # after `bot`, as embed_cost does
    held_out = set(report.HELD_OUT) | {"calib"}
    if args.saved:  # two saved runs (each searched in its own process, task speed77)
        return compare(np.load(args.against), dict(np.load(args.saved)), held_out, args.min_chars)
    cases = [
        case
        for name in report.SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if len(case.query) >= args.min_chars
    ]
    entries = tuple(load_glossary())
    index = SearchIndex.build(entries)
    assert index.semantic is not None
    encoder = index.semantic.encoder
    passes: list[np.ndarray] = []
    encode_queries = encoder.encode_queries

    def kept(*a: object, **k: object) -> np.ndarray:
        vectors = encode_queries(*a, **k)
        passes.append(np.array(vectors, copy=True))
        return vectors

    encoder.encode_queries = kept  # type: ignore[method-assign]
    answers, outcomes, digests, vectors = [], [], [], []
    for case in cases:
        passes.clear()
        result = index.search(case.query)
        offers = [(s.id, s.score, str(s.strategy)) for s in result.suggestions]
        answers.append(
            repr(
                (
                    str(result.status),
                    result.entry.id if result.entry else None,
                    str(result.strategy),
                    result.score,
                    offers,
                    result.other_side,
                    result.translated,
                    result.name_written,
                )
            )
        )
        card = result.entry.id if result.entry else None
        near = any(case.accepts(i) for i in [card, *(s.id for s in result.suggestions[:3])])
        if case.expected is None:
            what = "ok" if card is None or case.accepts(card) else "off"
        else:
            what = "nocard" if card is None else "right" if case.accepts(card) else "wrong"
        outcomes.append(f"{what}{'+3' if near else ''}")
        joined = np.vstack(passes) if passes else np.zeros((0, 384), np.float32)
        digests.append(hashlib.sha1(joined.tobytes()).hexdigest())
        vectors.append(joined)
    texts = [text for entry in entries for text in entry_texts(entry)]
    fresh = encoder.encode(texts)
    run = {
        "queries": np.array([c.query for c in cases]),
        "slices": np.array([c.slice for c in cases]),
        "answers": np.array(answers),
        "outcomes": np.array(outcomes),
        "digests": np.array(digests),
        "counts": np.array([len(v) for v in vectors]),
        "vectors": np.vstack(vectors),
        "entries": fresh,
    }
    print(
        f"{len(cases)} rows of {args.min_chars}+ characters, {len(texts)} entry texts, code "
        f"{args.code}"
    )
    if args.save:
        np.savez_compressed(args.save, **run)
    if not args.against:
        return 0
    return compare(np.load(args.against), run, held_out, args.min_chars)


def compare(before: Any, run: dict[str, Any], held_out: set[str], min_chars: int) -> int:
    """Counts of the rows whose vectors, answers or outcomes differ between two runs."""
    import numpy as np

    if list(before["queries"]) != list(run["queries"]):
        print("the saved run read other rows")
        return 1
    tally: dict[str, Counter[str]] = {"tuning": Counter(), "held out": Counter()}
    largest = {"tuning": 0.0, "held out": 0.0}
    old_at = np.concatenate([[0], np.cumsum(before["counts"])])
    new_at = np.concatenate([[0], np.cumsum(run["counts"])])
    for i, part in enumerate(run["slices"]):
        group = tally["held out" if part in held_out else "tuning"]
        group["rows"] += 1
        old = before["vectors"][old_at[i] : old_at[i + 1]]
        new = run["vectors"][new_at[i] : new_at[i + 1]]
        if before["digests"][i] != run["digests"][i]:
            group["vectors differ"] += 1
            name = "held out" if part in held_out else "tuning"
            if old.shape == new.shape and len(new):
                largest[name] = max(largest[name], float(np.abs(old - new).max()))
            else:
                group["passes differ in shape"] += 1
        group["answer differs"] += before["answers"][i] != run["answers"][i]
        group["outcome differs"] += before["outcomes"][i] != run["outcomes"][i]
    entries_equal = bool(np.array_equal(before["entries"], run["entries"]))
    entry_diff = float(np.abs(before["entries"] - run["entries"]).max())
    for name, counts in tally.items():
        print(
            f"  {name:<9} "
            + ", ".join(
                f"{k} {counts[k]}"
                for k in (
                    "rows",
                    "vectors differ",
                    "passes differ in shape",
                    "answer differs",
                    "outcome differs",
                )
            )
            + f", largest vector difference {largest[name]:.3g}"
        )
    print(
        f"  entry texts re-embedded: identical {entries_equal}, largest difference {entry_diff:.3g}"
    )
    print(
        json.dumps(
            {
                "min_chars": min_chars,
                **{name: {**dict(c), "largest": largest[name]} for name, c in tally.items()},
                "entries_identical": entries_equal,
                "entries_largest": entry_diff,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
