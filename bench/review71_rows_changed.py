"""Every relevance row react70's other-field rule could touch (its text writes a word of
other_fields.txt, as bench/react70_rows_changed.py selects them), searched with the list as it
was and without the words review71 took out (databases and clouds: ML work uses them beside the
glossary's entries, "vector databases vs postgres", "docker vs aws lambda for serving a model").
Tuning rows that change are printed; held-out ones only counted (`held`)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.react70_rows_changed import changed_rows, outcome, touched
from bench.relevance_report import every_case
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
    cases = [case for case in every_case() if touched(case, words)]
    print("candidate rows", len(cases))
    now = [outcome(c, index.search(c.query)) for c in cases]
    everyday.other_field_words.cache_clear()
    everyday.OTHER_FIELDS = Path("/tmp/review71_before.txt")
    everyday.OTHER_FIELDS.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    before = [outcome(c, index.search(c.query)) for c in cases]
    changed = changed_rows(cases, before, now)
    for key, count in sorted(changed.items()):
        print(*key, count)
    print("rows changed", sum(changed.values()))


if __name__ == "__main__":
    main()
