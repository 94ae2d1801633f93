"""Server terms found by meaning, on the server-term calibration set (tests/search/server_term_calib.py).

    python bench/server_term_calib.py [--verbose]

Each of the fifteen made-up servers gets its terms (embedded as the bot does, into a scratch
cache); every member's description is searched in that server, and so is its off-topic chat and
the blind set's off-topic queries (dev and calib slices). Counts: right card, right entry first
(a card or the first choice), wrong card, off-topic card. Last line JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.local import compile_local, with_vectors  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, load_cases  # noqa: E402
from bot.search.semantic.term_vectors import TermVectors  # noqa: E402
from tests.search.server_term_calib import SERVERS  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    bundled = load_glossary()
    base = SearchIndex.build(bundled)
    assert base.semantic is not None
    neighbours = [
        c.query
        for c in load_cases(ROOT / "tests/search/relevance_blind.tsv")
        if c.slice in ("dev", "calib") and c.kind in OFF_TOPIC_KINDS
    ]
    counts = {"described": 0, "card": 0, "first": 0, "wrong": 0, "offtopic": 0, "offtopic_card": 0}
    with tempfile.TemporaryDirectory() as scratch:
        vectors = TermVectors(base.semantic.encoder, Path(scratch))
        for server in SERVERS:
            local = compile_local(bundled, base, server.terms, {}, vectors=vectors)
            vectors.embed([text for _, text in local.texts])
            index = with_vectors(local, vectors).index
            for text, term_id in server.described:
                result = index.search(text)
                card = result.entry.id if result.entry else None
                counts["described"] += 1
                counts["card"] += card == term_id
                counts["first"] += result.best_id == term_id
                counts["wrong"] += card is not None and card != term_id
                if args.verbose and card != term_id:
                    shown = [s.id for s in result.suggestions[:3]]
                    print(
                        f"  {server.name}: {text!r} -> {result.status} {card} {shown} "
                        f"({result.strategy}, {result.score}); expected {term_id}"
                    )
            for text in (*server.off_topic, *neighbours):
                result = index.search(text)
                counts["offtopic"] += 1
                counts["offtopic_card"] += result.entry is not None
                if args.verbose and result.entry is not None:
                    print(f"  {server.name}: off-topic {text!r} -> {result.entry.id}")
    n = counts["described"]
    print(
        f"descriptions {n}: card {counts['card'] / n:.1%}, first {counts['first'] / n:.1%}, "
        f"wrong card {counts['wrong'] / n:.1%}; off-topic {counts['offtopic']}: "
        f"card {counts['offtopic_card']}"
    )
    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
