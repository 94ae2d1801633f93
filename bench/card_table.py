"""One row per tuning query: what the search knew of its first choice when it decided card, offer
or none, and whether that first choice is right (issue #12, task "rerank21").

    python bench/card_table.py [--slices dev,calib,...] [--out table.tsv]

Tuning slices only (held-out slices are refused). It wraps the steps of `SearchIndex._search`
as `bench/offer_causes.py` does (nothing in `bot/search` changes for it): the lexical pool before
the meaning is folded in, the pool after, the meaning's ten entries and cosines, the name asked
about, the names written, `_decide`'s first answer and the final one: `card_model.features`,
recorded where `SearchIndex._reconsidered` asks the learned model, whose answer is replaced by
the rules' own (so the table is the rules' decisions, with or without a model shipped). A row
is "in scope" where the meaning ran and a first choice exists; only those are features for a
learned decision. No query words or entry ids become features. `tools/fit_card_model.py` fits on it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search import index as index_module  # noqa: E402
from bot.search.card_model import FEATURES  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, load_cases  # noqa: E402


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


class _Recorder:
    """Stands in for the learned model: records the features and keeps the rules' answer."""

    def card(self, values: tuple[float, ...]) -> bool:
        trace.append({"step": "card", "features": values})
        return bool(values[0])


def _wrap() -> None:
    search = SearchIndex._search

    def traced_search(self, query, overlay):  # type: ignore[no-untyped-def]
        trace.append({"step": "search"})
        return search(self, query, overlay)

    SearchIndex._search = traced_search  # type: ignore[method-assign]
    index_module.card_model = _Recorder  # type: ignore[assignment]


def _first_search_end(steps: list[dict[str, Any]]) -> int:
    starts = [i for i, s in enumerate(steps) if s["step"] == "search"]
    return starts[1] if len(starts) > 1 else len(steps)


def table(slices: set[str]) -> list[Row]:
    """Every question, description and off-topic row of the tuning `slices` (and any other
    kind the sets hold), searched once with its trace read."""
    slices = slices - HELD_OUT
    _wrap()
    index = SearchIndex.build(load_glossary())
    rows: list[Row] = []
    for name in SETS:
        for case in load_cases(ROOT / "tests/search" / name):
            if case.slice not in slices:
                continue
            trace.clear()
            result = index.search(case.query)
            steps = trace[: _first_search_end(trace)]
            looked = next((s for s in steps if s["step"] == "card"), None)
            off_topic = case.kind in OFF_TOPIC_KINDS
            right = not off_topic and case.accepts(result.best_id)
            feats: tuple[float, ...] = looked["features"] if looked else ()
            rows.append(
                Row(
                    case.slice,
                    case.kind,
                    case.query,
                    looked is not None,
                    result.entry is not None,
                    right,
                    feats,
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
