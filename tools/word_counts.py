"""How many entries use each stem of the full-text index (issue 12, content tasks).

    python tools/word_counts.py > counts.tsv

One line per stem: its count of documents (`FullTextIndex.documents_using`) and the stem. Diff
two dumps (before and after a content edit) to see which words cross the glossary-word
(`everyday.GLOSSARY_WORD_ENTRIES`) or field-word (`everyday.FIELD_WORD_ENTRIES`) counts, which
change how everyday readings are judged. Uses data/ only.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search.everyday import FIELD_WORD_ENTRIES, GLOSSARY_WORD_ENTRIES  # noqa: E402


def main() -> int:
    fulltext = SearchIndex.build(load_glossary()).fulltext
    stems = fulltext._stems  # the index's own stem table: every stem it counts
    starts = fulltext._starts
    for word, term in sorted(stems.items()):
        count = int(starts[term + 1] - starts[term])
        marks = "".join(
            mark
            for mark, bar in (("G", GLOSSARY_WORD_ENTRIES), ("F", FIELD_WORD_ENTRIES))
            if count >= bar
        )
        print(f"{count}\t{marks}\t{word}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
