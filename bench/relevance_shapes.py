"""dev10's figures by shape (relevance_blind24.md): its rows are in shape order, forty each.

    OPENBLAS_NUM_THREADS=1 python bench/relevance_shapes.py [--misses]

(a) a context naming one entry, then a question about another; (b) a broad entry named in
passing as the setting of a question about a narrower one; (c) descriptions of 3 to 7 words;
(d) descriptions of 25 words or more; (e) off-topic rows using entry words in another sense.
dev10 is a tuning slice, so its misses may be listed.
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

SHAPES = "abcde"
ROWS_PER_SHAPE = 40


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list each shape's misses")
    args = parser.parse_args()
    cases = load_cases(ROOT / "tests/search/relevance_blind24.tsv")
    index = SearchIndex.build(load_glossary())
    reports = {
        f"dev10-{shape}": evaluate(index, cases[n * ROWS_PER_SHAPE : (n + 1) * ROWS_PER_SHAPE])
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
