"""A described-then-asked pair by shape: totals only. `--pair 73` (the default): dev27 and
test35 (relevance_blind57.md / 58.md); `--pair 74`: dev28 and test36 (relevance_blind59.md / 60.md);
`--pair 75`: dev29 and test37 (relevance_blind61.md / 62.md, blind74's shapes); `--pair 76`: dev30
and test38 (relevance_blind63.md / 64.md, blind74's shapes); `--pair 77`: dev31 and test39
(relevance_blind65.md / 66.md, blind74's shapes, the off-topic rows in three blocks).

    OPENBLAS_NUM_THREADS=1 python bench/blind73_shapes.py [--pair 73|74|75|76|77] [--misses]

The files are in block order (the .md files say so and test_relevance_blind_file checks it):
one description per entry (blind73: 4-9, 10-25, 26-60 words; blind74 to blind77: 4-9, 10-25, 26-45), then
the questions (naming no word of the entry's title, id or acronym, or naming it), then the
off-topic rows in blocks (blind73: 25 near-misses using an entry's word in another field's
sense, 15 plain programming / cloud / web / crypto questions, 10 far fields; blind74 to blind76:
20 mostly using a word AI/ML also uses in its own sense, 40 plain neighbouring-field or everyday
questions; blind77: 20 own-sense, 15 Discord-server chat, 25 plain). The held-out file (test35 to
test39) gets its shapes' totals, never its rows; --misses lists the tuning slice's only.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.slice_shapes import band, by_block, print_by_shape  # noqa: E402
from bot.glossary import Glossary, load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case  # noqa: E402


@dataclass(frozen=True)
class Pair:
    """A pair's two files, its tuning slice, off-topic blocks in file order, description bands."""

    sets: tuple[str, str]
    tuning: str
    off_topic: tuple[tuple[str, int], ...]
    bands: tuple[tuple[int, str], ...]


PAIRS = {
    "73": Pair(
        ("relevance_blind57.tsv", "relevance_blind58.tsv"),
        "dev27",
        (("o near", 25), ("o plain", 15), ("o far", 10)),
        ((9, "c 4-9w"), (25, "c 10-25w"), (60, "c 26-60w")),
    ),
    "74": Pair(
        ("relevance_blind59.tsv", "relevance_blind60.tsv"),
        "dev28",
        (("o own sense", 20), ("o plain", 40)),
        ((9, "c 4-9w"), (25, "c 10-25w"), (45, "c 26-45w")),
    ),
    "75": Pair(
        ("relevance_blind61.tsv", "relevance_blind62.tsv"),
        "dev29",
        (("o own sense", 20), ("o plain", 40)),
        ((9, "c 4-9w"), (25, "c 10-25w"), (45, "c 26-45w")),
    ),
    "76": Pair(
        ("relevance_blind63.tsv", "relevance_blind64.tsv"),
        "dev30",
        (("o own sense", 20), ("o plain", 40)),
        ((9, "c 4-9w"), (25, "c 10-25w"), (45, "c 26-45w")),
    ),
    "77": Pair(
        ("relevance_blind65.tsv", "relevance_blind66.tsv"),
        "dev31",
        (("o own sense", 20), ("o discord", 15), ("o plain", 25)),
        ((9, "c 4-9w"), (25, "c 10-25w"), (45, "c 26-45w")),
    ),
}
# Words too common to count as naming an entry ("Mixture of Experts", "LoRA & QLoRA").
FILLER = {"a", "an", "and", "for", "from", "in", "of", "on", "the", "to", "with"}


def words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


def names(glossary: Glossary, entry_id: str) -> set[str]:
    """The words of an entry's title, id and acronym."""
    entry = glossary[entry_id]
    return words(" ".join(filter(None, (entry.title, entry_id, entry.acronym)))) - FILLER


def shaped(cases: list[Case], glossary: Glossary, pair: Pair) -> list[Case]:
    """The set's rows with their shape as kind (off-topic blocks as `<slice>/<block>` slices,
    since the report counts off-topic rows by slice)."""
    out: list[Case] = []
    off_topic = sum(count for _, count in pair.off_topic)
    for case in cases[:-off_topic]:
        if case.kind == "description":
            out.append(replace(case, kind=band(case, pair.bands)))
        else:
            assert case.expected is not None
            named = words(case.query) & names(glossary, case.expected)
            out.append(replace(case, kind="q named" if named else "q unnamed"))
    return out + by_block(cases[-off_topic:], pair.off_topic, off_topic=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pair", choices=sorted(PAIRS), default="73")
    parser.add_argument(
        "--misses", action="store_true", help="list the tuning slice's misses by shape"
    )
    args = parser.parse_args()
    pair = PAIRS[args.pair]
    glossary = load_glossary()
    index = SearchIndex.build(glossary)
    print_by_shape(
        index, pair.sets, lambda _, cases: shaped(cases, glossary, pair), {pair.tuning}, args.misses
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
