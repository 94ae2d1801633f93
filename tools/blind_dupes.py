"""Print the rows of a new blind relevance file whose query repeats an earlier set's query.

Only the new file's rows are printed, so the earlier sets (some held out) stay unread.
Usage: python tools/blind_dupes.py tests/search/relevance_blind10.tsv
"""

import argparse
import csv
import re
from pathlib import Path

SETS = Path(__file__).resolve().parent.parent / "tests" / "search"


def normalise(query: str) -> str:
    """Letters and digits of any script, lower case (as `loosely` in the blind-file test)."""
    return " ".join(re.findall(r"[^\W_]+", query.lower()))


def queries(path: Path) -> set[str]:
    with path.open(newline="", encoding="utf-8") as f:
        return {normalise(row["query"]) for row in csv.DictReader(f, delimiter="\t")}


def main(new_file: str) -> None:
    new = Path(new_file).resolve()
    earlier = [
        p
        for p in [
            *sorted(SETS.glob("relevance*.tsv")),
            SETS / "everyday_probes.tsv",
            SETS / "chat_style_probes.tsv",
        ]
        if p.resolve() != new
    ]
    seen = set().union(*(queries(p) for p in earlier))
    with new.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if normalise(row["query"]) in seen:
                print(f"{row['kind']}\t{row['query']}\t{row['expected']}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "new_file", help="the new blind relevance file: a TSV of slice, kind, query, expected, also"
    )
    main(parser.parse_args().new_file)
