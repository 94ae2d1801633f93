"""Every relevance row task misses73's reading could touch, searched with and without it: a name
written as what someone said, asked back by a plain "what is it/that", is no description's
setting (`query.asks_what_mentioned_is` in `SearchIndex._describing_placed`). It reads only texts
closing so (`query._WHAT_IS_THAT`): the rows writing "what" and then "it", "that" or "this"
within two words (`_WIDE`, wider than the rule) are searched. Per-slice totals (right cards, wrong cards, off-topic cards, card/3) with and without;
tuning rows that change are printed, held-out ones only counted.

    OPENBLAS_NUM_THREADS=1 python bench/misses73_rows_changed.py
"""

from __future__ import annotations

import csv
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search import index as index_module  # noqa: E402

_WIDE = re.compile(r"what\W*\w*\W+(?:\w+\W+)?(?:it|that|this)\b")


def outcome(row: dict[str, str], result: SearchResult) -> tuple[str, bool]:
    """("right" | "wrong" | "nocard" | "offcard" | "ok", right among the card or first three)."""
    card = result.entry.id if result.entry else None
    right = set((row.get("expected") or "").split("|") + (row.get("also") or "").split("|"))
    right.discard("")
    if row["kind"] == "offtopic" or not row.get("expected"):
        return ("offcard" if card else "ok"), False
    shown = [card] if card else [s.id for s in result.suggestions[:3]]
    verdict = "nocard" if card is None else ("right" if card in right else "wrong")
    return verdict, bool(right & set(shown))


def main() -> None:
    index = SearchIndex.build(load_glossary())
    rows = []
    for path in sorted(Path("tests/search").glob("relevance*.tsv")):
        with path.open() as f:
            for row in csv.DictReader((x for x in f if not x.startswith("#")), delimiter="\t"):
                # wider than the rule's own test, so no row it reads is missed: "what", a word
                # at most, then it/that/this anywhere in the text
                text = (row.get("query") or "").lower()
                if _WIDE.search(text):
                    rows.append(row)
    print("candidate rows", len(rows))
    ruled = [outcome(r, index.search(r["query"])) for r in rows]
    index_module.asks_what_mentioned_is = lambda normalized, start: False
    plain = [outcome(r, index.search(r["query"])) for r in rows]
    totals: dict[str, Counter[str]] = {}
    for row, before, after in zip(rows, plain, ruled, strict=True):
        name = row.get("slice") or "old"
        held = name.startswith("test") or name in HELD_OUT
        if before != after and not held:
            print("tuning", name, repr(row["query"]), before, "->", after)
        for side, (verdict, card3) in (("before", before), ("after", after)):
            counts = totals.setdefault(name, Counter())
            counts[f"{side} {verdict}"] += 1
            counts[f"{side} card/3"] += card3
    for name, counts in sorted(totals.items()):
        moved = {
            k: (counts[f"before {k}"], counts[f"after {k}"])
            for k in ("right", "wrong", "offcard", "card/3")
            if counts[f"before {k}"] != counts[f"after {k}"]
        }
        if moved:
            print(name, moved)
    print("slices with candidate rows", len(totals))


if __name__ == "__main__":
    main()
