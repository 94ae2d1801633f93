"""Reciprocal-rank fusion against the shipped score blend, on the blind set's dev slice.

    python bench/fusion_rrf.py [--k 60] [--slices dev]

RRF orders entries by sum(1 / (k + rank)) over the lexical pool's ranking and the semantic
stage's; it carries no confidence, so the variant keeps the blend's scores (sorted) and hands
them out in RRF's order: the same card decisions' strength, RRF's choice of entry. Last line
JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.ranking import Candidate, Pool  # noqa: E402
from bot.search.relevance import evaluate_slices, format_sliced, load_cases  # noqa: E402

BLEND = index_module.fuse


def rrf_fuse(k: float):  # type: ignore[no-untyped-def]
    def fuse(pool: Pool, similar: Sequence[tuple[int, float]], **kwargs: object) -> None:
        lexical = [e for e, _ in pool.ranked()]
        BLEND(pool, similar, **kwargs)  # type: ignore[arg-type]
        blended = pool.ranked()
        fused: dict[int, float] = {}
        for ranking in (lexical, [e for e, _ in similar]):
            for rank, entry in enumerate(ranking):
                fused[entry] = fused.get(entry, 0.0) + 1.0 / (k + rank + 1)
        order = sorted(pool.by_entry, key=lambda e: -fused.get(e, 0.0))
        for entry, (_, candidate) in zip(order, blended, strict=True):
            strategy = pool.by_entry[entry].strategy
            pool.by_entry[entry] = Candidate(candidate.score, strategy)

    return fuse


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=float, default=60.0)
    parser.add_argument("--slices", default="dev")
    args = parser.parse_args()
    parts = args.slices.split(",")
    assert not {"test", "test2"} & set(parts), "test slices are reported, not tuned on"
    cases = [c for c in load_cases(ROOT / "tests/search/relevance_blind.tsv") if c.slice in parts]
    index = SearchIndex.build(load_glossary())
    figures = {}
    for name, fuse in (("blend", BLEND), (f"rrf k={args.k:g}", rrf_fuse(args.k))):
        index_module.fuse = fuse  # type: ignore[assignment]
        reports = evaluate_slices(index, cases)
        print(f"== {name}")
        print(format_sliced(reports))
        figures[name] = {
            f"{part}/{kind}": [round(t.rate(t.direct), 4), round(t.rate(t.near), 4), t.wrong]
            for part, report in reports.items()
            for kind, t in report.by_kind.items()
        }
    index_module.fuse = BLEND
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
