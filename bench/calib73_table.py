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
choice). The signals are `bot/search/calibration.signals`', from the answer's `fused` (what the
meaning and the words were when fused), as the bot weighs an offer at run time: this script adds
only the label, the slice and the row. `bench/calib73_fit.py` fits and judges a model
on these records; `--all` (with `--totals-only`) is its what-if's pass over every slice.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rapidfuzz import fuzz  # noqa: E402

from bench.promote70_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS, shown_row_by_row  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.keys import normalize  # noqa: E402
from bot.search import SearchIndex, calibration  # noqa: E402
from bot.search.query import is_question  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402
from bot.search.results import Suggestion  # noqa: E402

Record = dict[str, Any]
TUNING_SLICES = (*TUNING, "dev24", "dev25", "dev26", "dev27")
# How a question asking for a fix or a how-to opens (calib74's demotion signal, bench only)
FIX = re.compile(
    r"\b(how (do|can|should|would) (i|we|you)|how to|fix|won'?t|doesn'?t|isn'?t working|"
    r"keeps?|error|why (is|does|do|are) my|stop|avoid|prevent)\b"
)


class Neighbours:
    """Each entry's nearest entries by the centre of its vectors (calib74's "the meaning's
    margin over the card's own near neighbours", bench only)."""

    def __init__(self, index: SearchIndex, count: int = 5) -> None:
        semantic = index.semantic
        assert semantic is not None
        sums = np.zeros((len(index.entries), semantic.vectors.shape[1]), dtype=np.float64)
        np.add.at(sums, semantic.owners, semantic.vectors)
        sums /= np.linalg.norm(sums, axis=1, keepdims=True) + 1e-12
        near = sums @ sums.T
        np.fill_diagonal(near, -1.0)
        self.of = np.argsort(-near, axis=1)[:, :count]


def extra(case: Case, result: Any, index: SearchIndex, first: int, near: Neighbours) -> Record:
    """Signals the shipped model does not read, for the demotion attempt (calib74): the entry's
    kind, how near its names come to the words written, whether the text asks for a fix, the
    meaning's margin over the card's own near neighbours and its related entries in the ten."""
    entry = index.entries[first]
    text = normalize(case.query)
    names = [n for n in (entry.title, entry.acronym, *entry.aliases) if n]
    fused = result.fused
    similar = dict(fused.similar) if fused else {}
    own = similar.get(first)
    others = [similar[e] for e in near.of[first] if e in similar]
    floor = min(similar.values()) if similar else None  # a neighbour outside the ten is below
    best_other = max(others) if others else floor
    return {
        "x_kind": entry.kind,
        "x_name_fuzz": max((fuzz.partial_ratio(normalize(n), text) for n in names), default=0.0),
        "x_fix": bool(FIX.search(case.query.lower())),
        "x_neigh_margin": None if own is None or best_other is None else own - best_other,
        "x_neigh_in_ten": len(others),
        "x_related_in_ten": sum(
            index.entries[e].id in entry.related or entry.id in index.entries[e].related
            for e in similar
            if e != first
        ),
    }


def record(case: Case, weighed: Any, final: Any, index: SearchIndex, near: Neighbours) -> Record:
    """A row's first choice's signals as the bot weighs them (`calibration.signals`, the one
    home: a card's as though it were still its first offer), with what the table adds: the
    label, the slice, the row, and a card's offers beside it (not counting it). `weighed` is the
    answer the step was given (before an offer's choices are filled: what the bot weighs),
    `final` the answer shown without the step (an offer's first three, filled)."""
    card = weighed.entry is not None
    offers = list(weighed.suggestions)
    if card:
        offers.insert(
            0, Suggestion(weighed.entry.id, weighed.entry.title, weighed.score, weighed.strategy)
        )
    first = index.positions[offers[0].id]
    nxt = index.positions.get(offers[1].id) if len(offers) > 1 else None
    choices = [o.id for o in offers]
    shown = choices if card else [o.id for o in final.suggestions]
    off = case.kind in OFF_TOPIC_KINDS
    return {
        "verdict": "off" if off else "right" if case.accepts(choices[0]) else "wrong",
        # the right entry among the first four choices (as a card and three offers, unfilled)
        # / the first three shown as an offer (filled)
        "card3_as_card": not off and any(case.accepts(c) for c in choices[:4]),
        "card3_as_offer": not off and any(case.accepts(c) for c in shown[:3]),
        "slice": case.slice,
        "kind": case.kind,
        "query": case.query,
        "first": choices[0],
        "card": card,
        **calibration.signals(
            weighed.fused,
            first,
            nxt,
            offers,
            text=case.query,
            title=index.entries[first].title,
            written_whole=weighed.name_written,
            compared=weighed.other_side is not None,
            question=is_question(case.query),
            related=nxt is not None and index._related(first, nxt),
            same_category=nxt is not None
            and index.entries[nxt].category == index.entries[first].category,
        )._asdict(),
        "n_offers": len(weighed.suggestions),  # a card's offers are those beside it
        # what fix74's remedy rule (after the step) makes of an offer the step leaves: its card's
        # verdict and card/3, None where it cards nothing (calib75: the what-if counts it)
        **remedy(case, weighed, final),
        **extra(case, weighed, index, first, near),
    }


def remedy(case: Case, weighed: Any, final: Any) -> Record:
    """The card `_remedy_carded` makes of an offer the step was given and left (`final` searched
    without the step): its verdict and whether the right entry is it or among its first three
    offers; None where the answer stays an offer (or was a card already)."""
    if weighed.entry is not None or final.entry is None:
        return {"remedy": None, "remedy_card3": False}
    off = case.kind in OFF_TOPIC_KINDS
    shown = [final.entry.id, *(s.id for s in final.suggestions[:3])]
    return {
        "remedy": "off" if off else "right" if case.accepts(shown[0]) else "wrong",
        "remedy_card3": not off and any(case.accepts(c) for c in shown),
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
    parser.add_argument(
        "--offers-of",
        help="an earlier --all dump: search again only the rows it recorded as offers",
    )
    args = parser.parse_args()
    index = SearchIndex.build(load_glossary())
    # The records are what the step weighs (`_offer_carded`, the model's own cards): searched
    # without it, so a refit sees every offer as an offer, as the model did when first fitted,
    # and as the step was given it (before `_offers_filled`: the bot weighs the unfilled offers)
    weighed: list[Any] = []

    def unweighed(self: SearchIndex, result: Any, query: str) -> Any:
        weighed.append(result)
        return result

    SearchIndex._offer_carded = unweighed  # type: ignore[method-assign]
    near = Neighbours(index)
    earlier = None
    if args.offers_of:
        earlier = [json.loads(line) for line in Path(args.offers_of).read_text().splitlines()]
    slices = set(args.slices.split(","))
    if args.all:
        cases = every_case(None if args.slices == ",".join(TUNING_SLICES) else slices)
    else:
        cases = tuning_cases(slices - HELD_OUT)
    assert earlier is None or len(earlier) == len(cases)  # one record a row (--all)
    out = []
    for n, case in enumerate(cases, 1):
        if earlier is not None and (
            earlier[n - 1]["verdict"] == "nothing" or earlier[n - 1]["card"]
        ):
            out.append(earlier[n - 1])  # a card or nothing: the fill does not touch it
            continue
        weighed.clear()
        result = index.search(case.query)
        if n % 1000 == 0:
            print("searched", n, flush=True)
        if result.entry is None and not result.suggestions:
            if case.slice in HELD_OUT or args.all:
                out.append({"slice": case.slice, "kind": case.kind, "verdict": "nothing"})
            continue
        r = record(case, weighed[-1], result, index, near)
        if not shown_row_by_row(case.slice):
            r["query"] = r["first"] = None  # totals only: no held-out row is read
        out.append(r)
    Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in out))
    print(f"rows {len(cases)}, records {len(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
