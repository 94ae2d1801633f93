"""What-if (task cause57): the speaker's opening ("accountant:", "musician here,", "chef, long
one, sorry:") searched away. dev20 writes every question in a voice, and the meaning of the
opening pulls toward entries of the speaker's trade (an accountant's question to Capital or
Operating Expenditure). Every tuning row whose text opens so is searched as written and with the
opening cut; the verdicts (`offer_causes.row_verdict`) are tallied, dev20 apart. Nothing in
`bot/search` changes; held-out slices are never read.

    OPENBLAS_NUM_THREADS=1 python bench/cause57_voice.py [--rows]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING, print_moves, row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402

# A short opening before a colon ("parent question:", "chef, long one, sorry:"), or a word or two
# and "here" ("musician here,", "mobile dev here."): who asks, not what.
OPENING = re.compile(r"^(?:[^:?`]{1,40}?:|\w+(?: \w+)? here[,.])\s+", re.IGNORECASE)
# --narrow: lower-case words only (no log's "RuntimeError:", no "rope_scaling="), and the rest
# asks ("?"): the first run cut pasted log lines' labels ("router:", "docker:") too.
NARROW = re.compile(r"^(?:[a-z][a-z ,'-]{0,38}:|[a-z]+(?: [a-z]+)? here[,.])\s+(?=.*\?)")
# --last: a long text (LONG words or more) searched as its last sentence that asks ("?") alone,
# the context before it dropped (dev20's long rambling questions put the question last).
LONG = 30
SENTENCE = re.compile(r"(?<=[.!?:;])\s+")


def last_question(text: str) -> str:
    """The last sentence of a long text that asks, or the text as it is."""
    if len(text.split()) < LONG:
        return text
    asking = [s for s in SENTENCE.split(text) if "?" in s and len(s.split()) >= 4]
    return asking[-1] if asking else text


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--narrow", action="store_true")
    parser.add_argument("--last", action="store_true")
    args = parser.parse_args()
    opening = NARROW if args.narrow else OPENING
    slices = {*TUNING, "dev19", "dev20"} - HELD_OUT
    index = SearchIndex.build(load_glossary())
    moved: dict[str, Counter[tuple[str, str]]] = {"dev20": Counter(), "other": Counter()}
    opened: Counter[str] = Counter()
    rows: list[str] = []
    for case in tuning_cases(slices):
        cut = last_question(case.query) if args.last else opening.sub("", case.query, count=1)
        if cut == case.query or len(cut.split()) < 3:
            continue
        side = "dev20" if case.slice == "dev20" else "other"
        opened[side] += 1
        before = row_verdict(case, index.search(case.query))
        after = row_verdict(case, index.search(cut))
        moved[side][(before, after)] += 1
        if before != after:
            rows.append(f"{case.slice} {before} -> {after}: {case.query[:90]!r}")
    for side, counts in moved.items():
        print_moves(f"== {side}: {opened[side]} rows open with a speaker", counts)
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
