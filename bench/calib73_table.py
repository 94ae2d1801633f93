"""The signals the search already computes for a row's answer, one record per row, for a
calibrated confidence (task calib73, issue #12 part 2: a card decision learned from many signals
at once, fitted on rows kept apart from those it is judged on).

    OPENBLAS_NUM_THREADS=1 python bench/calib73_table.py --dump FILE [--slices dev,...]

Tuning slices only (held-out slices, calib among them, are refused). Every row answered by a
card or an offer is one record of its first choice (the card, else the first offer): whether it
is a card, its strategy, score and lead over the next choice, the number of offers; the
meaning's first cosine and its lead over the second, the choice's own cosine and rank in the
meaning's ten, whether the meaning's first and the lexical stage's first (before the meaning was
folded in) are the choice, the lexical stage's lead; the name written, the name asked about (the
choice or another), the share of its title written; the clause vote's ranking used, the text's
cosine to the field, how many of the meaning's ten are near its first; words, characters,
question or statement, comparison; and the label: right / wrong / off (an off-topic row's
choice). The signals are `bot/search/calibration.record`'s, from the answer's `fused` (what the
meaning and the words were when fused), as the bot weighs an offer at run time: this script adds
only the label, the slice and the row. `bench/calib73_fit.py` fits and judges a model
on these records; `--all` (with `--totals-only`) is its what-if's pass over every slice.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.promote70_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, calibration  # noqa: E402
from bot.search.query import is_question  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402
from bot.search.results import Suggestion  # noqa: E402

Record = dict[str, Any]
TUNING_SLICES = (*TUNING, "dev24", "dev25", "dev26")


def record(case: Case, result: Any, index: SearchIndex) -> Record:
    """A row's first choice's signals as the bot weighs them (`calibration.record`, the one
    home: a card's as though it were still its first offer), with what the table adds: the
    label, the slice, the row, and a card's offers beside it (not counting it)."""
    card = result.entry is not None
    offers = list(result.suggestions)
    if card:
        offers.insert(
            0, Suggestion(result.entry.id, result.entry.title, result.score, result.strategy)
        )
    first = index.positions[offers[0].id]
    nxt = index.positions.get(offers[1].id) if len(offers) > 1 else None
    choices = [o.id for o in offers]
    off = case.kind in OFF_TOPIC_KINDS
    return {
        "verdict": "off" if off else "right" if case.accepts(choices[0]) else "wrong",
        # the right entry among the first four choices (as a card and three offers) / three
        "card3_as_card": not off and any(case.accepts(c) for c in choices[:4]),
        "card3_as_offer": not off and any(case.accepts(c) for c in choices[:3]),
        "slice": case.slice,
        "kind": case.kind,
        "query": case.query,
        "first": choices[0],
        "card": card,
        **calibration.record(
            result.fused,
            first,
            nxt,
            offers,
            text=case.query,
            title=index.entries[first].title,
            written_whole=result.name_written,
            compared=result.other_side is not None,
            question=is_question(case.query),
            related=nxt is not None and index._related(first, nxt),
            same_category=nxt is not None
            and index.entries[nxt].category == index.entries[first].category,
        ),
        "n_offers": len(result.suggestions),  # a card's offers are those beside it
    }


def every_case(slices: set[str] | None) -> list[Case]:
    """Every row of every slice (held out too): the what-if's pass, totals only for those."""
    return [
        c
        for name in SETS
        for c in load_cases(ROOT / "tests/search" / name)
        if slices is None or c.slice in slices
    ]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump", required=True, help="write the records here, one JSON line each")
    parser.add_argument("--slices", default=",".join(TUNING_SLICES))
    parser.add_argument(
        "--all",
        action="store_true",
        help="every row of every slice (the what-if's pass): held-out records keep no text",
    )
    args = parser.parse_args()
    index = SearchIndex.build(load_glossary())
    slices = set(args.slices.split(","))
    if args.all:
        cases = every_case(None if args.slices == ",".join(TUNING_SLICES) else slices)
    else:
        cases = tuning_cases(slices - HELD_OUT)
    out = []
    for n, case in enumerate(cases, 1):
        result = index.search(case.query)
        if n % 1000 == 0:
            print("searched", n, flush=True)
        if result.entry is None and not result.suggestions:
            if case.slice in HELD_OUT or args.all:
                out.append({"slice": case.slice, "kind": case.kind, "verdict": "nothing"})
            continue
        r = record(case, result, index)
        if case.slice in HELD_OUT:
            r["query"] = r["first"] = None  # totals only: no held-out row is read
        out.append(r)
    Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in out))
    print(f"rows {len(cases)}, records {len(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
