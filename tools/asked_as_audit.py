"""Which entries' "asked as" phrasings sit nearer another entry than their own (issue 12).

    OPENBLAS_NUM_THREADS=1 python tools/asked_as_audit.py [--gap 0.03] [--limit 40]

For every phrasing: its cosine to its own entry (the best of the entry's other vectors: the
description and its other phrasings, not itself) and to the nearest other entry (the best of that
entry's vectors), by the shipped model and vectors. A phrasing is *crossed* when the other entry is
nearer, *close* when it is within `--gap` of its own. Pairs of entries are listed by how many of
their phrasings are crossed or close, either way round. Uses data/ and the model only.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search.semantic import SemanticIndex, default_cache_dir  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gap", type=float, default=0.03, help="'close' margin (cosine)")
    parser.add_argument("--limit", type=int, default=40, help="pairs to list")
    parser.add_argument("--show", action="store_true", help="print each listed pair's phrasings")
    args = parser.parse_args(argv)

    entries = list(load_glossary())
    index = SemanticIndex.build(entries, cache_dir=default_cache_dir())
    vectors, owners = index.vectors, index.owners
    first_row = {int(o): i for i, o in reversed(list(enumerate(owners.tolist())))}
    cosines = vectors @ vectors.T
    count = len(entries)

    crossed = close = phrasings = 0
    pairs: dict[tuple[int, int], list[tuple[float, int, str]]] = defaultdict(list)
    for row in range(len(vectors)):
        own = int(owners[row])
        if row == first_row[own]:
            continue  # the description, not a phrasing
        phrasings += 1
        scores = cosines[row].copy()
        scores[row] = -2.0
        best = np.full(count, -2.0, dtype=np.float32)
        np.maximum.at(best, owners, scores)
        own_score = float(best[own])
        best[own] = -2.0
        other = int(np.argmax(best))
        margin = own_score - float(best[other])  # below 0: nearer the other entry
        if margin >= args.gap:
            continue
        if margin < 0:
            crossed += 1
        else:
            close += 1
        text = entries[own].asked_as[row - first_row[own] - 1]
        pairs[(min(own, other), max(own, other))].append((margin, own, text))

    print(
        f"{phrasings} phrasings of {count} entries: {crossed} nearer another entry, "
        f"{close} within {args.gap} of one; {len(pairs)} pairs of entries"
    )
    ranked = sorted(pairs.items(), key=lambda kv: (-len(kv[1]), min(m for m, _, _ in kv[1])))
    for (a, b), items in ranked[: args.limit]:
        worst = min(m for m, _, _ in items)
        print(f"{len(items):3d}  {entries[a].id} / {entries[b].id}  (worst margin {worst:+.3f})")
        if args.show:
            for margin, own, text in sorted(items):
                print(f"       {margin:+.3f}  [{entries[own].id}] {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
