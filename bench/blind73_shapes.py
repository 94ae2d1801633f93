"""dev27 and test35 (relevance_blind57.md / 58.md) by shape: totals only.

    OPENBLAS_NUM_THREADS=1 python bench/blind73_shapes.py [--misses]

The files are in block order (the .md files say so and test_relevance_blind_file checks it):
one description per entry naming nothing of it (4-9, 10-25, 26-60 words, mixed), then the
questions (naming no word of the entry's title, id or acronym, or naming it), then 50 off-topic
rows (25 near-misses using an entry's word in another field's sense, 15 plain programming /
cloud / web / crypto questions, 10 far fields). test35 is held out: its shapes' totals are
printed, never its rows; --misses lists dev27's only.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import Glossary, load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.relevance import Case, evaluate_slices, format_sliced, load_cases  # noqa: E402

SETS = ("relevance_blind57.tsv", "relevance_blind58.tsv")
TUNING = {"dev27"}
OFF_TOPIC = (("o near", 25), ("o plain", 15), ("o far", 10))
BANDS = ((9, "c 4-9w"), (25, "c 10-25w"), (60, "c 26-60w"))
# Words too common to count as naming an entry ("Mixture of Experts", "LoRA & QLoRA").
FILLER = {"a", "an", "and", "for", "from", "in", "of", "on", "the", "to", "with"}


def words(text: str) -> set[str]:
    return set(re.findall(r"[^\W_]+", text.lower()))


def names(glossary: Glossary, entry_id: str) -> set[str]:
    """The words of an entry's title, id and acronym."""
    entry = glossary[entry_id]
    return words(" ".join(filter(None, (entry.title, entry_id, entry.acronym)))) - FILLER


def shaped(cases: list[Case], glossary: Glossary) -> list[Case]:
    """The set's rows with their shape as kind (off-topic blocks as `<slice>/<block>` slices,
    since the report counts off-topic rows by slice)."""
    out: list[Case] = []
    for case in cases[:-50]:
        if case.kind == "description":
            band = next(b for top, b in BANDS if len(case.query.split()) <= top)
            out.append(replace(case, kind=band))
        else:
            assert case.expected is not None
            named = words(case.query) & names(glossary, case.expected)
            out.append(replace(case, kind="q named" if named else "q unnamed"))
    start = len(cases) - 50
    for block, count in OFF_TOPIC:
        out += [replace(c, slice=f"{c.slice}/{block}") for c in cases[start : start + count]]
        start += count
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list dev27's misses by shape")
    args = parser.parse_args()
    glossary = load_glossary()
    index = SearchIndex.build(glossary)
    for name in SETS:
        cases = load_cases(ROOT / "tests/search" / name)
        reports = evaluate_slices(index, shaped(cases, glossary))
        print(f"== {name}")
        print(format_sliced(reports))
        if args.misses:
            for part, report in reports.items():
                if part.split("/")[0] in TUNING:
                    print(f"-- misses, {part}")
                    print("\n".join(f"  {miss}" for miss in report.misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
