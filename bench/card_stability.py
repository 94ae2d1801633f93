"""Cards that move with unrelated entries (issue #12, "calibrated confidence"; task layer47).

    python bench/card_stability.py [--slices dev9,dev16] [--show 20]

Searches every tuning-slice row (never a held-out one) and the layer47 probes on the bundled
glossary and on three that differ only where a card should not care (`tests/search/
stable_cards.py`): one unrelated entry's text three times as long, one unrelated entry given a
phrasing of its own, a server's 200 terms added. Prints, per variant, how many rows' card (an
entry, or none) changed, and the first few. The meaning stage is the bundled one throughout:
what moves is the words' statistics.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from tests.search.stable_cards import UNRELATED, variants  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default="", help="only these tuning slices (default: all)")
    parser.add_argument("--show", type=int, default=15, help="changed rows listed per variant")
    parser.add_argument("--dump", default="", help="write the bundled index's cards here (JSON)")
    parser.add_argument("--bundled-only", action="store_true", help="no variants (with --dump)")
    args = parser.parse_args()
    wanted = set(filter(None, args.slices.split(",")))
    queries: list[tuple[str, str]] = []  # (slice, query), tuning rows only
    for case in tuning_cases(wanted - HELD_OUT if wanted else None):
        queries.append((case.slice, case.query))
    probes = ROOT / "tests/search/layer47_probes.tsv"
    for line in probes.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            queries.append(("probe", line.split("\t")[1]))
    bundled = load_glossary()
    base = SearchIndex.build(bundled)

    def cards(index: SearchIndex) -> list[str | None]:
        return [r.entry.id if r.entry else None for r in map(index.search, (q for _, q in queries))]

    before = cards(base)
    if args.dump:
        rows = [[part, query, card] for (part, query), card in zip(queries, before, strict=True)]
        Path(args.dump).write_text(json.dumps(rows, indent=0), encoding="utf-8")
    if args.bundled_only:
        return 0
    print(
        f"{len(queries)} rows (tuning slices and probes); {sum(c is not None for c in before)} cards"
    )
    for label, index in variants(bundled, base).items():
        after = cards(index)
        moved = [
            (q, a, b)
            for q, a, b in zip(queries, before, after, strict=True)
            if a != b and UNRELATED not in (a, b)
        ]
        print(f"== {label}: {len(moved)} cards moved")
        for (part, query), old, new in moved[: args.show]:
            print(f"  [{part}] {old} -> {new}: {query[:110]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
