"""The relevance rows that hold a link, read as `/define` reads them (`search_asked`), in totals
only: the relevance report searches each row whole (`SearchIndex.search`), which is what
`search_asked` does with a text that holds no link, so these rows are the only ones where the
product's reading and the report's differ.

    OPENBLAS_NUM_THREADS=1 python bench/link_rows.py [--held-out]

Readings compared, each as right cards / on-topic wrong cards / off-topic cards, card-or-first-
three of the on-topic rows (as `sums.py` counts them): the report's (`search`), round 26's
`search_asked` (main before ablate56: the whole's card first, the words' only where the whole
opens none; `round26`), that with a link alone opening no card (`alone_offered`, ablate56's
fix), and the branch's `search_asked`. Tuning slices by default; `--held-out` reads the held-out
ones instead (totals only: one read per variant proposed).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from relevance_report import HELD_OUT, SETS  # noqa: E402

from bot.glossary import load_glossary  # noqa: E402
from bot.glossary.links import only_links, without_links  # noqa: E402
from bot.search import SearchIndex, SearchResult  # noqa: E402
from bot.search.asked import _address_offered, search_asked  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case, load_cases  # noqa: E402

Reading = Callable[[SearchIndex, str], SearchResult]


def round26(index: SearchIndex, text: str) -> SearchResult:
    """`search_asked` as main had it (d8c5eaf6)."""
    whole = index.search(text)
    if whole.entry is not None or only_links(text):
        return whole
    words = " ".join(without_links(text).split())
    if words == " ".join(text.split()) or not re.search(r"\w", words):
        return whole
    alone = index.search(words)
    return alone if alone.entry is not None else whole


def alone_offered(index: SearchIndex, text: str) -> SearchResult:
    """round 26's, a link alone's card made an offer."""
    result = round26(index, text)
    return _address_offered(result) if only_links(text) else result


READINGS: dict[str, Reading] = {
    "search": lambda index, text: index.search(text),
    "round26": round26,
    "alone_offered": alone_offered,
    "branch": search_asked,
}


def has_link(text: str) -> bool:
    return only_links(text) or without_links(text) != text


def totals(index: SearchIndex, cases: list[Case], reading: Reading) -> tuple[int, ...]:
    right = wrong = off = near = 0
    for case in cases:
        result = reading(index, case.query)
        card = result.entry.id if result.entry else None
        if case.kind in OFF_TOPIC_KINDS or case.expected is None:
            off += card is not None and not case.accepts(card)
            continue
        right += case.accepts(card)
        wrong += card is not None and not case.accepts(card)
        shown = [card] if card else [s.id for s in result.suggestions[:3]]
        near += any(case.accepts(i) for i in shown)
    return right, wrong, off, near


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--held-out", action="store_true", help="the held-out slices, totals only")
    args = parser.parse_args()
    cases = [
        case
        for name in SETS
        for case in load_cases(ROOT / "tests/search" / name)
        if case.slice != "all"
        and (case.slice in HELD_OUT) == args.held_out
        and has_link(case.query)
    ]
    on_topic = sum(c.kind not in OFF_TOPIC_KINDS and c.expected is not None for c in cases)
    print(f"{'held-out' if args.held_out else 'tuning'} rows with a link: {len(cases)}")
    if not cases:
        return 0
    index = SearchIndex.build(load_glossary())
    for name, reading in READINGS.items():
        right, wrong, off, near = totals(index, cases, reading)
        print(f"  {name:<14} {right} / {wrong} / {off}   card-or-3 {near}/{on_topic}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
