"""The what-if of `SearchIndex._other_sense_offered` (task offfield76), through
bench/step_whatif.py: the step acts only on a card for an entry with other senses
(`Entry.other_senses`: data/other-senses since senses77) whose name the text writes, so only the rows writing a word
of one of those entries' names are
searched with and without it. A name written (or mistyped past its first four letters) writes its
longest word's first four letters at a word's start.

    OPENBLAS_NUM_THREADS=1 python bench/offfield76_rows_changed.py [--slices ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.step_whatif import main
from bot.glossary import load_glossary


def starts() -> set[str]:
    """The first four letters of the longest word of each name of an entry with other senses
    ("tran", "atte", "llam", "dist" for "knowledge distillation")."""
    found: set[str] = set()
    for entry in load_glossary():
        if not entry.other_senses:
            continue
        for name in (entry.title, entry.acronym or "", *entry.aliases):
            words = re.findall(r"[a-z0-9]+", name.lower())
            if words:
                found.add(max(words, key=len)[:4])
    return found


MAY_TOUCH = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, starts()))) + r")")

if __name__ == "__main__":
    main("_other_sense_offered", MAY_TOUCH)
