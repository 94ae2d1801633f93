"""What the search knew when it gave a card, and which threshold would withhold wrong cards at
the least cost in right ones (task withhold71, issue #12: "never a confident wrong card").

    OPENBLAS_NUM_THREADS=1 python bench/withhold71_table.py [--slices dev,dev2,...] [--rows]

Tuning slices only (held-out slices, calib among them, are refused). Every row that gets a card
is one record: the strategy, the card's score and its margin over the first offer, the meaning's
first cosine and its lead over the second, the card's own cosine and rank in the meaning's ten,
whether the meaning's first is the card (the two stages agree), the name written or not, the
text's length and whether it is a question, whether a name was asked about, and the first
offer's category and relation to the card; and its verdict: right, wrong (another entry) or
off-topic (a row with no answer). Read by `offer_causes`' tracing (nothing in `bot/search`
changes): the meaning's features from the first `_search` call's `fuse`.

For single features and simple pairs, each threshold's withheld cards are printed as
right / wrong / off-topic and the (wrong + off-topic) : right ratio, best first (those with
>= 8 wrong withheld, or at 2:1 or better). A card withheld becomes an offer, the same entry
first: a right card turned offer keeps card/3 but counts against "right"; a wrong one no longer
counts as wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import trace, traced_cases, traced_start  # noqa: E402
from bench.promote70_causes import TUNING  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.query import is_question  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

Record = dict[str, Any]
TUNING_SLICES = (*TUNING, "dev24", "dev25")


def record(case: Any, result: Any, steps: list[dict[str, Any]], index: SearchIndex) -> Record:
    card = index.positions[result.entry.id]
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    similar = fused["similar"] if fused else []
    ranks = {e: r for r, (e, _) in enumerate(similar)}
    cosines = dict(similar)
    runner = result.suggestions[0] if result.suggestions else None
    runner_pos = index.positions.get(runner.id) if runner else None
    entry = index.entries[card]
    verdict = (
        "off"
        if case.kind in OFF_TOPIC_KINDS
        else "right"
        if case.accepts(result.entry.id)
        else "wrong"
    )
    return {
        "verdict": verdict,
        "slice": case.slice,
        "query": case.query,
        "card": result.entry.id,
        "strategy": result.strategy,
        "meaning_ran": fused is not None,
        "score": result.score,
        "margin": result.score - runner.score if runner else 99.0,
        "cos1": similar[0][1] if similar else None,
        "lead": similar[0][1] - similar[1][1] if len(similar) > 1 else None,
        "card_cos": cosines.get(card),
        "card_rank": ranks.get(card, 10) if fused else None,
        "agree": bool(similar) and similar[0][0] == card,
        "written": result.name_written or card in (fused["written"] if fused else set()),
        "asked": bool(fused and fused["asked"] and fused["asked"][0] == card),
        "words": len(case.query.split()),
        "question": is_question(case.query),
        "same_category": runner_pos is not None
        and index.entries[runner_pos].category == entry.category,
        "related": runner_pos is not None and index._related(card, runner_pos),
        "runner": runner.id if runner else None,
        "right_offered": any(case.accepts(s.id) for s in result.suggestions[:2]),
        "compared": result.other_side is not None,
        "second": index.entries[similar[1][0]].id if len(similar) > 1 else None,
        "second_related": len(similar) > 1 and index._related(card, similar[1][0]),
        "second_category": len(similar) > 1
        and index.entries[similar[1][0]].category == entry.category,
        "meaning_first_related": bool(similar)
        and similar[0][0] != card
        and index._related(card, similar[0][0]),
        "lexical_before": fused["before"][card].score
        if fused and card in fused["before"]
        else None,
        "lexical_strategy": fused["before"][card].strategy
        if fused and card in fused["before"]
        else None,
        "lexical_first": bool(fused and fused["before"])
        and max(fused["before"].items(), key=lambda i: i[1].score)[0] == card,
        "described": fused["described_first"] == card if fused else False,
        "long": bool(fused and fused["long_description"]),
    }


Test = Callable[[Record], bool]


def tally(records: list[Record], withheld: Test) -> tuple[int, int, int]:
    hit = [r for r in records if withheld(r)]
    return (
        sum(r["verdict"] == "right" for r in hit),
        sum(r["verdict"] == "wrong" for r in hit),
        sum(r["verdict"] == "off" for r in hit),
    )


def rules() -> list[tuple[str, Test]]:
    """Single features and simple pairs, each a family of thresholds."""
    out: list[tuple[str, Test]] = []

    def num(name: str, below: float) -> Test:
        return lambda r: r[name] is not None and r[name] < below

    singles: list[tuple[str, Test]] = []
    for t in (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8):
        singles.append((f"cos1<{t}", num("cos1", t)))
        singles.append((f"card_cos<{t}", num("card_cos", t)))
    for t in (0.01, 0.02, 0.03, 0.05, 0.08, 0.1):
        singles.append((f"lead<{t}", num("lead", t)))
    for t in (1, 2, 3, 5, 8, 10, 15):
        singles.append((f"margin<{t}", num("margin", t)))
    for t in (89, 90, 92, 95, 98):
        singles.append((f"score<{t}", num("score", t)))
    for t in (1, 2, 3, 5):
        singles.append((f"card_rank>={t}", lambda r, t=t: (r["card_rank"] or 0) >= t))
    singles.append(("meaning disagrees", lambda r: r["meaning_ran"] and not r["agree"]))
    singles.append(("not written", lambda r: r["meaning_ran"] and not r["written"]))
    singles.append(("same category runner", lambda r: r["same_category"]))
    singles.append(("related runner", lambda r: r["related"]))
    singles.append(("question", lambda r: r["question"]))
    singles.append(("not asked", lambda r: r["meaning_ran"] and not r["asked"]))
    for t in (6, 10, 15, 20):
        singles.append((f"words>={t}", lambda r, t=t: r["words"] >= t))
    singles.append(("compared", lambda r: r["compared"]))
    singles.append(("meaning's second related", lambda r: r["second_related"]))
    singles.append(("meaning's first another, related", lambda r: r["meaning_first_related"]))
    singles.append(("lexical first another", lambda r: r["meaning_ran"] and not r["lexical_first"]))
    singles.append(
        ("lexical: a name (match-term)", lambda r: r["lexical_strategy"] == "match-term")
    )
    singles.append(("lexical: none", lambda r: r["meaning_ran"] and r["lexical_before"] is None))
    out.extend(singles)
    conditions: list[tuple[str, Test]] = [
        ("disagree", lambda r: r["meaning_ran"] and not r["agree"]),
        ("unwritten", lambda r: r["meaning_ran"] and not r["written"]),
        ("semantic", lambda r: r["strategy"] == "semantic"),
        ("description", lambda r: r["strategy"] == "description"),
        ("match-term", lambda r: r["strategy"] == "match-term"),
        ("question", lambda r: r["question"]),
        ("statement", lambda r: not r["question"]),
        ("not asked", lambda r: r["meaning_ran"] and not r["asked"]),
        ("same category", lambda r: r["same_category"]),
        ("unrelated runner", lambda r: r["runner"] is not None and not r["related"]),
        ("not compared", lambda r: not r["compared"]),
        # a name the lexical stage pooled (80) though not written whole: a subject rule read it
        (
            "kind read, unwritten",
            lambda r: r["lexical_strategy"] == "match-term" and not r["written"],
        ),
    ]
    for cname, cond in conditions:
        for sname, single in singles:
            out.append((f"{cname} & {sname}", lambda r, c=cond, s=single: c(r) and s(r)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--min-wrong", type=int, default=8)
    parser.add_argument("--dump", help="write the records here, one JSON line each")
    args, slices, index = traced_start(parser, TUNING_SLICES)
    records = [
        record(case, result, steps, index)
        for case, result, steps in traced_cases(index, slices, trace)
        if result.entry is not None
    ]
    if args.dump:
        Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in records))
    total = tally(records, lambda r: True)
    print(f"cards: right {total[0]} wrong {total[1]} off-topic {total[2]}")
    lines = []
    for name, test in rules():
        right, wrong, off = tally(records, test)
        if wrong + off == 0:
            continue
        ratio = (wrong + off) / right if right else float("inf")
        lines.append((ratio, wrong + off, name, right, wrong, off))
    print(f"{'ratio':>6}{'right':>6}{'wrong':>6}{'off':>5}  rule (withheld where it holds)")
    for ratio, _, name, right, wrong, off in sorted(lines, key=lambda x: (-x[0], -x[1])):
        if wrong >= args.min_wrong or ratio >= 2:
            print(f"{ratio:>6.2f}{right:>6}{wrong:>6}{off:>5}  {name}")
    if args.rows:
        for r in sorted(records, key=lambda r: (r["verdict"], r["strategy"] or "")):
            if r["verdict"] != "right":
                print(
                    f"{r['verdict'].upper()} {r['slice']} {r['query']!r} -> {r['card']} "
                    f"[{r['strategy']} {r['score']} m{r['margin']:.1f} "
                    f"cos1 {r['cos1'] and round(r['cos1'], 3)} lead "
                    f"{r['lead'] and round(r['lead'], 3)} rank {r['card_rank']} "
                    f"agree {r['agree']} written {r['written']} asked {r['asked']}] "
                    f"runner {r['runner']} related {r['related']}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
