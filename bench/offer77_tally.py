"""offer77's tally (issue #12): the tuning rows whose right entry is offered first with no card,
and whether the text writes that entry's name (the first offer among the names the search found
written, `Fused.written`), with the offer model's signals and P(right) (`calibration.p_right`,
under `OFFER_CARDED`). Every other offer (no card, a first choice) is kept too, right or not, so
a rule on a written name can be read against the offers it would card wrongly. Tuning slices
only (held-out rows are never printed).

    OPENBLAS_NUM_THREADS=1 python bench/offer77_tally.py --out FILE [--shard i/n] [--slices dev31]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case, shown_row_by_row
from bot.glossary import load_glossary
from bot.search import SearchIndex, calibration
from bot.search.relevance import OFF_TOPIC_KINDS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--shard", default="0/1")
    parser.add_argument("--slices", default="", help="only these tuning slices (default: all)")
    args = parser.parse_args()
    i, n = map(int, args.shard.split("/"))
    index = SearchIndex.build(load_glossary())
    seen: dict[str, object] = {}
    offer_carded = SearchIndex._offer_carded

    def watched(self, result, query):  # type: ignore[no-untyped-def]
        seen.clear()
        if result.entry is None and result.suggestions:
            offers = result.suggestions
            first = self.positions.get(offers[0].id)
            nxt = self.positions.get(offers[1].id) if len(offers) > 1 else None
            if first is not None:
                s = calibration.signals(
                    result.fused,
                    first,
                    nxt,
                    offers,
                    text=query,
                    title=self.entries[first].title,
                    written_whole=result.name_written,
                    compared=result.other_side is not None,
                    question=calibration_question(query),
                    related=nxt is not None and self._related(first, nxt),
                    same_category=nxt is not None
                    and self.entries[nxt].category == self.entries[first].category,
                )
                seen["p"] = calibration.p_right(calibration.numbers(s))
                seen["signals"] = s._asdict()
                fused = result.fused
                seen["in_written"] = bool(fused and first in fused.written)
                seen["asked"] = bool(fused and fused.asked == first)
        return offer_carded(self, result, query)

    from bot.search.index import is_question as calibration_question

    SearchIndex._offer_carded = watched  # type: ignore[method-assign]
    only = set(filter(None, args.slices.split(",")))
    cases = [
        c
        for c in every_case()
        if shown_row_by_row(c.slice) and c.slice != "calib" and (not only or c.slice in only)
    ]
    rows = []
    for k, case in enumerate(cases):
        if k % n != i:
            continue
        result = index.search(case.query)
        if result.entry is not None or not result.suggestions or "p" not in seen:
            continue
        off = case.kind in OFF_TOPIC_KINDS or case.expected is None
        rows.append(
            {
                "slice": case.slice,
                "kind": case.kind,
                "query": case.query,
                "first": result.suggestions[0].id,
                "strategy": result.suggestions[0].strategy,
                "right": (not off) and case.accepts(result.suggestions[0].id),
                "off": off,
                **seen,
            }
        )
    Path(args.out).write_text(json.dumps(rows))
    print("rows", len(rows))


if __name__ == "__main__":
    main()
