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
choice). Read by `offer_causes`' tracing (nothing in `bot/search` changes): the meaning's
features from the first `_search` call's `fuse`. `bench/calib73_fit.py` fits and judges a model
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

from bench.offer72_table import title_written  # noqa: E402
from bench.offer_causes import _wrap, trace, traced_cases  # noqa: E402
from bench.promote70_causes import TUNING  # noqa: E402
from bench.relevance_report import HELD_OUT, SETS  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.query import is_question  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402

Record = dict[str, Any]
TUNING_SLICES = (*TUNING, "dev24", "dev25", "dev26")


def record(case: Case, result: Any, steps: list[dict[str, Any]], index: SearchIndex) -> Record:
    card = result.entry is not None
    choices = [result.entry.id] if card else []
    choices += [s.id for s in result.suggestions]
    first = choices[0]
    pos = index.positions[first]
    score = result.score if card else result.suggestions[0].score
    strategy = result.strategy if card else result.suggestions[0].strategy
    nxt = (
        result.suggestions[0 if card else 1]
        if len(result.suggestions) > (0 if card else 1)
        else None
    )
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    similar = fused["similar"] if fused else []
    ranks = {e: r for r, (e, _) in enumerate(similar)}
    before = fused["before"] if fused else {}
    lex = sorted(before.items(), key=lambda i: -i[1].score)
    cos1 = similar[0][1] if similar else None
    off = case.kind in OFF_TOPIC_KINDS
    verdict = "off" if off else "right" if case.accepts(first) else "wrong"
    nxt_pos = index.positions.get(nxt.id) if nxt else None
    return {
        "verdict": verdict,
        # the right entry among the first four choices (as a card and three offers) / three
        "card3_as_card": not off and any(case.accepts(c) for c in choices[:4]),
        "card3_as_offer": not off and any(case.accepts(c) for c in choices[:3]),
        "slice": case.slice,
        "kind": case.kind,
        "query": case.query,
        "first": first,
        "card": card,
        "strategy": strategy,
        "score": score,
        "margin": score - nxt.score if nxt else 99.0,
        "n_offers": len(result.suggestions),
        "meaning_ran": fused is not None,
        "cos1": cos1,
        "lead": similar[0][1] - similar[1][1] if len(similar) > 1 else None,
        "first_cos": dict(similar).get(pos),
        "first_rank": ranks.get(pos, 10) if fused else None,
        "agree": bool(similar) and similar[0][0] == pos,
        "lex_first": bool(lex) and lex[0][0] == pos,
        "lex_score": before[pos].score if pos in before else None,
        "lex_lead": (lex[0][1].score - lex[1][1].score) if len(lex) > 1 else 99.0,
        "lex_n": len(lex),
        "written": result.name_written or (bool(fused) and pos in fused["written"]),
        "n_written": len(fused["written"]) if fused else 0,
        "asked": bool(fused and fused["asked"] and fused["asked"][0] == pos),
        "asked_other": bool(fused and fused["asked"] and fused["asked"][0] != pos),
        "title_share": title_written(index, pos, case.query),
        "near": sum(c >= cos1 - 0.03 for _, c in similar) if similar else 0,
        "claused": bool(fused and fused.get("claused")),
        "unnamed": bool(fused and fused.get("unnamed")),
        "long_description": bool(fused and fused.get("long_description")),
        "field": fused.get("field", 0.0) if fused else None,
        "words": len(case.query.split()),
        "chars": len(case.query),
        "question": is_question(case.query),
        "compared": result.other_side is not None,
        "next_related": nxt_pos is not None and index._related(pos, nxt_pos),
        "next_category": nxt_pos is not None
        and index.entries[nxt_pos].category == index.entries[pos].category,
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
    _wrap()
    index = SearchIndex.build(load_glossary())
    slices = set(args.slices.split(","))
    if args.all:
        cases = every_case(None if args.slices == ",".join(TUNING_SLICES) else slices)

        def searched():  # type: ignore[no-untyped-def]
            for case in cases:
                trace.clear()
                result = index.search(case.query)
                starts = [i for i, s in enumerate(trace) if s["step"] == "search"]
                first = starts[1] if len(starts) > 1 else len(trace)
                yield case, result, trace[:first]

        rows = searched()
    else:
        rows = traced_cases(index, slices - HELD_OUT, trace)
    out = []
    n = 0
    for case, result, steps in rows:
        n += 1
        if n % 1000 == 0:
            print("searched", n, flush=True)
        if result.entry is None and not result.suggestions:
            if case.slice in HELD_OUT or args.all:
                out.append({"slice": case.slice, "kind": case.kind, "verdict": "nothing"})
            continue
        r = record(case, result, steps, index)
        if case.slice in HELD_OUT:
            r["query"] = r["first"] = None  # totals only: no held-out row is read
        out.append(r)
    Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in out))
    print(f"rows {n}, records {len(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
