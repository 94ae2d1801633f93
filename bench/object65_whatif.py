"""What-if for task object65 (issue #12): which tuning cards for the name asked about a reading
of "the name is only the object of the speaker's verb before a question" would turn into offers,
by the meaning's rank of the name. Reads `bench/setting64_rows.py`'s output:

    OPENBLAS_NUM_THREADS=1 python bench/setting64_rows.py > rows.jsonl
    python bench/object65_whatif.py rows.jsonl

First order: a card the reading takes becomes an offer (a right card lost, a wrong or off-topic
card gone); later rules are not replayed.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.search.index import OBJECT_NAME_RANKS  # noqa: E402
from bot.search.query import spoken_object  # noqa: E402


def main() -> int:
    rows = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines()]
    by_rank: Counter[tuple[str, str]] = Counter()
    for row in rows:
        text, spans = row["text"], row["spans"]
        if not spans or not all(spoken_object(text[:s], text[e:]) for s, e in spans):
            continue
        low = row["rank"] is None or row["rank"] > OBJECT_NAME_RANKS
        by_rank[("below" if low else "within", row["verdict"])] += 1
        where = "TAKEN" if low else "kept "
        print(f"{where} {row['verdict']:5} {row['slice']:9} {row['card']} rank={row['rank']}")
        print(f"      {text[:110]}")
    for (where, verdict), n in sorted(by_rank.items()):
        print(f"{where} the first {OBJECT_NAME_RANKS}: {verdict} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
