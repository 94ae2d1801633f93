"""A tuning slice written by shape, its figures by shape: its rows are in shape order, forty each.

    OPENBLAS_NUM_THREADS=1 python bench/relevance_shapes.py [dev10|dev11] [--misses]

dev10 (relevance_blind24.md, the default): (a) a context naming one entry, then a question about
another; (b) a broad entry named in passing as the setting of a question about a narrower one;
(c) descriptions of 3 to 7 words; (d) descriptions of 25 words or more; (e) off-topic rows using
entry words in another sense.
dev11 (relevance_blind26.md): (a) a told scene whose named entry is the subject; (b) a told
scene naming one entry, the question about another, unnamed; (c) a pasted error or log line,
then a short question about what it is about; (d) a thread reply about an entry named only in
the quoted message; (e) descriptions in non-native English or with heavy typos.
Both are tuning slices, so their misses may be listed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import evaluate, format_sliced, load_cases  # noqa: E402

SHAPED = {"dev10": "relevance_blind24.tsv", "dev11": "relevance_blind26.tsv"}
SHAPES = "abcde"
ROWS_PER_SHAPE = 40


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("slice", nargs="?", default="dev10", choices=sorted(SHAPED))
    parser.add_argument("--misses", action="store_true", help="list each shape's misses")
    args = parser.parse_args()
    cases = load_cases(ROOT / "tests/search" / SHAPED[args.slice])
    index = SearchIndex.build(load_glossary())
    reports = {
        f"{args.slice}-{shape}": evaluate(
            index, cases[n * ROWS_PER_SHAPE : (n + 1) * ROWS_PER_SHAPE]
        )
        for n, shape in enumerate(SHAPES)
    }
    print(format_sliced(reports))
    if args.misses:
        for part, report in reports.items():
            print(f"-- misses, {part}")
            print("\n".join(f"  {miss}" for miss in report.misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
