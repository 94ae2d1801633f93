"""Every relevance row react70's other-field rule could touch (its text writes a word of
other_fields.txt, as bench/react70_rows_changed.py selects them), searched with the list as it
was and without the words review71 took out (databases and clouds: ML work uses them beside the
glossary's entries, "vector databases vs postgres", "docker vs aws lambda for serving a model").
Tuning rows that change are printed; held-out ones only counted (`held`)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

from bench.react70_rows_changed import HELD_OUT, outcome
from bot.glossary import load_glossary
from bot.search import SearchIndex, everyday

REMOVED = frozenset(
    [
        "mysql",
        "postgres",
        "postgresql",
        "mongodb",
        "redis",
        "oracle",
        "sqlite",
        "aws",
        "azure",
        "heroku",
    ]
)


def main() -> None:
    words = everyday.other_field_words() | REMOVED  # the list before review71
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
    now = [outcome(r, index.search(r["query"])) for r in rows]
    everyday.other_field_words.cache_clear()
    everyday.OTHER_FIELDS = Path("/tmp/review71_before.txt")
    everyday.OTHER_FIELDS.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    before = [outcome(r, index.search(r["query"])) for r in rows]
    changed: Counter[tuple[str, str, str]] = Counter()
    for row, was, after in zip(rows, before, now, strict=True):
        if was != after:
            name = row.get("slice") or "old"
            tuning = not name.startswith("test") and name not in HELD_OUT
            if tuning:
                print("tuning", name, repr(row["query"]), was, "->", after)
            changed[(name if tuning else "held", was, after)] += 1
    for key, count in sorted(changed.items()):
        print(*key, count)
    print("rows changed", sum(changed.values()))


if __name__ == "__main__":
    main()
