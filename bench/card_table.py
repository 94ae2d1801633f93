"""One row per tuning query the learned step weighs: a card or an offer the rules made of their
own accord where the meaning ran, what the search knew of its first choice, and whether that
first choice is right (issue #12, tasks rerank21, rerank22 and rerank23).

    python bench/card_table.py [--slices dev,calib,...] [--out table.tsv]

Tuning slices only (held-out slices are refused). It wraps `SearchIndex._reconsidered` (the step
asks it with the evidence the stages computed) so that it records `card_model.features` of the
answer's first choice and answers as the rules did. A row is "in scope" where the step was
asked; only those have `features`. No query words or entry ids are features: only scores,
ranks, cosines and the shape of the text. `tools/fit_card_model.py` fits on it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING, traced_cases  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.card_model import FEATURES, features  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

__all__ = ["FEATURES", "TUNING", "Row", "table"]


@dataclass(frozen=True, slots=True)
class Row:
    slice: str
    kind: str
    query: str
    in_scope: bool  # the meaning ran, a first choice exists
    main_card: bool
    right: bool  # the first choice is right (off-topic: never)
    features: tuple[float, ...]


trace: list[dict[str, Any]] = []


def _wrap() -> None:
    """Record, for each `_search` call, the text it read and the features of the answer the
    learned step is asked about (`SearchIndex._reconsidered`), which then answers as the rules
    did: the table holds the rules' own decisions."""
    search = SearchIndex._search

    def traced_search(self, query, overlay):  # type: ignore[no-untyped-def]
        trace.append({"step": "search", "query": query})
        return search(self, query, overlay)

    SearchIndex._search = traced_search  # type: ignore[method-assign]

    def traced_reconsidered(self, result, evidence):  # type: ignore[no-untyped-def]
        weighed = self._weighed_first(result, evidence)
        if weighed is not None:
            first, strategy = weighed
            values = features(self.positions[first.id], strategy, evidence)
            trace.append({"step": "reconsidered", "features": values})
        return result

    SearchIndex._reconsidered = traced_reconsidered  # type: ignore[method-assign]


def table(slices: set[str]) -> list[Row]:
    """Every question, description and off-topic row of the tuning `slices` (and any other
    kind the sets hold), searched once with its trace read."""
    slices = slices - HELD_OUT
    _wrap()
    index = SearchIndex.build(load_glossary())
    rows: list[Row] = []
    for case, result, steps in traced_cases(index, slices, trace):
        values = next((s["features"] for s in steps if s["step"] == "reconsidered"), None)
        right = case.kind not in OFF_TOPIC_KINDS and case.accepts(result.best_id)
        rows.append(
            Row(
                case.slice,
                case.kind,
                case.query,
                values is not None,
                result.entry is not None,
                right,
                values or (),
            )
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    parser.add_argument("--out", type=Path, default=None, help="write the table as TSV")
    args = parser.parse_args()
    rows = table(set(args.slices.split(",")))
    scoped = [r for r in rows if r.in_scope]
    print(f"rows {len(rows)}, in scope (the meaning ran) {len(scoped)}")
    print(
        f"in scope: right first {sum(r.right for r in scoped)}, cards {sum(r.main_card for r in scoped)}"
    )
    if args.out:
        lines = ["\t".join(("slice", "kind", "main_card", "right", *FEATURES))]
        for r in scoped:
            values = (f"{v:.4f}" for v in r.features)
            lines.append(
                "\t".join((r.slice, r.kind, str(int(r.main_card)), str(int(r.right)), *values))
            )
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
