"""Task senses77's move of the other senses (bot/search/other_senses.toml -> data/other-senses,
read as `Entry.other_senses`) changes no row: every relevance row writing a word of a name of
offfield76's 38 entries (the first four letters of its longest word, as
bench/offfield76_rows_changed.py picks them) searched by one tree, each row's answer written by
its number: status, card, first three offers. No text is written (held-out rows are compared,
never shown). Run on a copy of main and on a copy of the move alone, then compare the files:

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=TREE python bench/senses77_move_same.py SENSES_TOML OUT
    cmp OUT_MAIN OUT_MOVED

SENSES_TOML: main's bot/search/other_senses.toml (which entries to pick rows for).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.relevance_report import every_case
from bot.glossary import load_glossary
from bot.search import SearchIndex


def main(senses_toml: str, out_path: str) -> None:
    with Path(senses_toml).open("rb") as f:
        ids = set(tomllib.load(f))
    glossary = load_glossary()
    starts: set[str] = set()
    for entry in glossary:
        if entry.id in ids:
            for name in (entry.title, entry.acronym or "", *entry.aliases):
                words = re.findall(r"[a-z0-9]+", name.lower())
                if words:
                    starts.add(max(words, key=len)[:4])
    may = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, starts))) + r")")
    index = SearchIndex.build(glossary)
    rows = 0
    with Path(out_path).open("w") as out:
        for n, case in enumerate(every_case()):
            if not may.search(case.query.lower()):
                continue
            r = index.search(case.query)
            card = r.entry.id if r.entry else "-"
            offers = ",".join(s.id for s in r.suggestions[:3])
            out.write(f"{n}\t{case.slice}\t{r.status}\t{card}\t{offers}\n")
            rows += 1
    print("rows", rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
