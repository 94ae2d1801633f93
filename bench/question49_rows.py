"""Every tuning question row: what it got and which step of `SearchIndex._search` decided it,
with where the right entry stood in each stage (issue #12, task "question49": chat-style
questions that get no card).

    python bench/question49_rows.py [--slices dev17,...] [--kinds question,description] > rows.tsv

Tuning slices only (held-out slices are refused). The steps are read by `bench/offer_causes.py`'s
wrapping (nothing in `bot/search` changes for it). One tab-separated line per question row (and
per off-topic row that got a card): slice, verdict (right / wrong / offer-first / offer-3 /
offer-miss / none / off-card), the card or the first offers, the expected entry, the step, the
right entry's place (meaning rank and cosine, lexical score, pool place after the meaning), the
names written, the name asked, the meaning's first three, the decided pool's first three, the
query.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.offer_causes import (  # noqa: E402
    TUNING,
    card_cause,
    cause,
    right_entry,
    row_verdict,
    traced_cases,
)
from bot.search import SearchIndex  # noqa: E402
from bot.search.fulltext import tokens_of  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kinds", default="question")
    parser.add_argument("--words", action="store_true")
    args, slices, index = offer_causes.traced_start(parser, TUNING)
    kinds = set(args.kinds.split(","))
    ids = [e.id for e in index.entries]
    for case, result, steps in traced_cases(index, slices, offer_causes.trace):
        verdict = row_verdict(case, result)
        if case.kind not in kinds and verdict != "off-card":
            continue
        fused = next((s for s in steps if s["step"] == "fuse"), {})
        written = ",".join(sorted(ids[e] for e in fused.get("written", ())))
        asked = fused.get("asked")
        meaning = ",".join(f"{ids[e]}:{c:.2f}" for e, c in fused.get("similar", [])[:3])
        pool = next((s["pool"] for s in steps if s["step"] == "decide"), [])
        offers = [s.id for s in result.suggestions[:3]]
        got = result.entry.id if result.entry else "offers:" + ",".join(offers)
        step = card_cause(steps, result, index) if result.entry else cause(steps)
        fields = (
            case.slice,
            *([case.kind] if len(kinds) > 1 else []),
            verdict,
            got,
            case.expected or "-",
            step,
            right_entry(case, steps, index) or "-",
            written or "-",
            ids[asked[0]] if asked else "-",
            meaning or "-",
            " ".join(f"{e}:{s}" for e, s, _ in pool) or "-",
            case.query,
        )
        if args.words:
            card = result.entry.id if result.entry is not None else None
            pair = (card, case.expected) if verdict == "wrong" else ()
            fields = (*fields, " / ".join(_carrying(index, case.query, e) for e in pair) or "-")
        print("\t".join(fields))
    return 0


def _carrying(index: SearchIndex, text: str, entry_id: str | None) -> str:
    """The words of `text` that score `entry_id` highest in the description stage, each alone."""
    if entry_id not in index.positions:
        return "-"
    entry = index.positions[entry_id]
    scores = {}
    for word in dict.fromkeys(tokens_of(text)):
        hit = next(
            (
                h
                for h in index.fulltext.search(word, limit=index.fulltext.size)
                if h.document == entry
            ),
            None,
        )
        if hit is not None:
            scores[word] = hit.bm25
    best = sorted(scores.items(), key=lambda item: -item[1])[:3]
    return f"{entry_id}: " + ",".join(f"{w} {s:.1f}" for w, s in best)


if __name__ == "__main__":
    raise SystemExit(main())
