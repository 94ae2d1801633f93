"""What the search knew when it offered a text's first choice without a card, and which signals
separate a right first choice from a wrong one (task offer72, issue #12: "a lone suggestion with
a strong lead is a card").

    OPENBLAS_NUM_THREADS=1 python bench/offer72_table.py [--slices dev,...] [--dump FILE]

Tuning slices only (held-out slices, calib among them, are refused). Every row under 250
characters whose answer is an offer (no card, choices) is one record: the step that left it
without a card, the first offer's score and strategy and its lead over the second, the meaning's
first cosine and lead, whether the meaning's first, the lexical stage's first (before the
meaning is folded in), the name written and the name asked about are the first offer, how much
of its title is written, how many of the meaning's ten are near its first; and its verdict:
right (the first offer is a right entry), wrong (another entry) or off (an off-topic row, where
a card would be an off-topic card). Read by `offer_causes`' tracing (nothing in `bot/search`
changes). For single signals and pairs, the rows a "card the first offer where it holds" rule
would card are printed as right / wrong / off and right : (wrong + off), best first.
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

from bench.offer_causes import LATER, trace, traced_cases, traced_start, wrap_rules  # noqa: E402
from bench.promote70_causes import TUNING, withheld_by  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.calibration import title_share  # noqa: E402
from bot.search.query import is_question  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS  # noqa: E402

Record = dict[str, Any]
TUNING_SLICES = (*TUNING, "dev24", "dev25", "dev26")
SHORT = 250


def record(case: Any, result: Any, steps: list[dict[str, Any]], index: SearchIndex) -> Record:
    first = result.suggestions[0]
    pos = index.positions[first.id]
    second = result.suggestions[1] if len(result.suggestions) > 1 else None
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    similar = fused["similar"] if fused else []
    ranks = {e: r for r, (e, _) in enumerate(similar)}
    before = fused["before"] if fused else {}
    lex = sorted(before.items(), key=lambda i: -i[1].score)
    cos1 = similar[0][1] if similar else None
    verdict = (
        "off" if case.kind in OFF_TOPIC_KINDS else "right" if case.accepts(first.id) else "wrong"
    )
    return {
        "verdict": verdict,
        "slice": case.slice,
        "kind": case.kind,
        "query": case.query,
        "first": first.id,
        "cause": withheld_by(steps),
        "strategy": first.strategy,
        "score": first.score,
        "margin": first.score - second.score if second else 99.0,
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
        "written": bool(fused) and pos in fused["written"],
        "asked": bool(fused and fused["asked"] and fused["asked"][0] == pos),
        "asked_other": bool(fused and fused["asked"] and fused["asked"][0] != pos),
        "title_share": title_share(index.entries[pos].title, case.query),
        "near": sum(c >= cos1 - 0.03 for _, c in similar) if similar else 0,
        "question": is_question(case.query),
        "chars": len(case.query),
        "second_related": second is not None and index._related(pos, index.positions[second.id]),
        "compared": result.other_side is not None,
        "field": fused["field"] if fused else None,
        "lex_strategy": lex[0][1].strategy if lex else None,
        "lex_n": len(lex),
        "unnamed": bool(fused and fused["unnamed"]),
        "first_lex_rank": [e for e, _ in lex].index(pos) if pos in before else None,
    }


Test = Callable[[Record], bool]


def tally(records: list[Record], test: Test) -> tuple[int, int, int]:
    hit = [r for r in records if test(r)]
    return tuple(sum(r["verdict"] == v for r in hit) for v in ("right", "wrong", "off"))  # type: ignore[return-value]


def singles() -> list[tuple[str, Test]]:
    def over(name: str, t: float) -> Test:
        return lambda r: r[name] is not None and r[name] >= t

    out: list[tuple[str, Test]] = []
    for t in (0.6, 0.65, 0.7, 0.75, 0.8):
        out.append((f"cos1>={t}", over("cos1", t)))
        out.append((f"first_cos>={t}", over("first_cos", t)))
    for t in (0.02, 0.04, 0.06, 0.08, 0.1, 0.15):
        out.append((f"lead>={t}", over("lead", t)))
    for t in (2, 5, 8, 12, 20):
        out.append((f"margin>={t}", over("margin", t)))
    for t in (70, 75, 80, 84, 86):
        out.append((f"score>={t}", over("score", t)))
    for t in (5, 10, 20):
        out.append((f"lex_lead>={t}", over("lex_lead", t)))
    for t in (0.5, 1.0):
        out.append((f"title_share>={t}", over("title_share", t)))
    for name in ("agree", "lex_first", "written", "asked", "question", "second_related"):
        out.append((name, lambda r, n=name: bool(r[n])))
        out.append((f"not {name}", lambda r, n=name: not r[n]))
    out.append(("not asked_other", lambda r: not r["asked_other"]))
    for t in (1, 2, 3):
        out.append((f"near<={t}", lambda r, t=t: r["meaning_ran"] and r["near"] <= t))
    for t in (1, 2, 3):
        out.append((f"n_offers<={t}", lambda r, t=t: r["n_offers"] <= t))
    for s in ("semantic", "description", "match-term", "fuzzy", "prefix"):
        out.append((f"strategy {s}", lambda r, s=s: r["strategy"] == s))
    for c in sorted({"below", "margin", "card turned offer"}):
        out.append((f"cause {c}", lambda r, c=c: r["cause"].startswith(c)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump", help="write the records here, one JSON line each")
    parser.add_argument("--load", help="read the records from here instead of searching")
    parser.add_argument("--min-right", type=int, default=8)
    parser.add_argument("--ratio", type=float, default=4.0)
    args, slices, index = traced_start(parser, TUNING_SLICES)
    if args.load:
        records = [json.loads(line) for line in Path(args.load).read_text().splitlines()]
    else:
        wrap_rules(LATER, "later", changed_only=True)
        records = [
            record(case, result, steps, index)
            for case, result, steps in traced_cases(index, slices, trace)
            if result.entry is None and result.suggestions and len(case.query) < SHORT
        ]
    if args.dump:
        Path(args.dump).write_text("".join(json.dumps(r) + "\n" for r in records))
    total = tally(records, lambda r: True)
    print(f"offers: first right {total[0]} wrong {total[1]} off-topic {total[2]}")
    base = singles()
    rules = list(base)
    for i, (a, ta) in enumerate(base):
        for b, tb in base[i + 1 :]:
            rules.append((f"{a} & {b}", lambda r, ta=ta, tb=tb: ta(r) and tb(r)))
    lines = []
    for name, test in rules:
        right, wrong, off = tally(records, test)
        ratio = right / (wrong + off) if wrong + off else float(right)
        if right >= args.min_right and ratio >= args.ratio:
            lines.append((ratio, right, wrong, off, name))
    print(f"{'ratio':>6}{'right':>6}{'wrong':>6}{'off':>5}  carded where")
    for ratio, right, wrong, off, name in sorted(lines, key=lambda x: (-x[1], -x[0]))[:80]:
        print(f"{ratio:>6.1f}{right:>6}{wrong:>6}{off:>5}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
