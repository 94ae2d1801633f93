"""Every relevance row `SearchIndex._compared_off_field` (task react70) could touch, searched with
and without the rule: a row can change only where its text writes a word of other_fields.txt,
so this measures the rule on all slices in a minute where the whole report took over an hour
under load. Tuning rows that change are printed; held-out ones only counted (`held`)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

from bot.glossary import load_glossary
from bot.search import SearchIndex, SearchResult
from bot.search.everyday import other_field_words

HELD_OUT = ("everyday-check", "chat-check", "calib")


def outcome(row: dict[str, str], result: SearchResult) -> str:
    card = result.entry.id if result.entry else None
    right = set((row.get("expected") or "").split("|") + (row.get("also") or "").split("|"))
    if row["kind"] == "offtopic" or not row.get("expected"):
        return "offcard" if card else "ok"
    return "nocard" if card is None else ("right" if card in right else "wrong")


def main() -> None:
    words = other_field_words()
    index = SearchIndex.build(load_glossary())
    rows = []
    for path in sorted(Path("tests/search").glob("relevance*.tsv")):
        with path.open() as f:
            for row in csv.DictReader((x for x in f if not x.startswith("#")), delimiter="\t"):
                text = (row.get("query") or "").lower()
                said = set(re.findall(r"[a-z0-9]+", text))
                if said & words or any(w in text for w in words if len(w) > 4):
                    rows.append(row)
    print("candidate rows", len(rows))
    ruled = [outcome(r, index.search(r["query"])) for r in rows]
    SearchIndex._compared_off_field = lambda self, result, *rest: result  # type: ignore[method-assign]
    plain = [outcome(r, index.search(r["query"])) for r in rows]
    changed: Counter[tuple[str, str, str]] = Counter()
    for row, before, after in zip(rows, plain, ruled, strict=True):
        if before != after:
            name = row.get("slice") or "old"
            tuning = not name.startswith("test") and name not in HELD_OUT
            if tuning:
                print("tuning", name, repr(row["query"]), before, "->", after)
            changed[(name if tuning else "held", before, after)] += 1
    for key, count in sorted(changed.items()):
        print(*key, count)


if __name__ == "__main__":
    main()
