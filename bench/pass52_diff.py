"""Task pass52: every tuning row that writes "has", "have", "had" or "same as" (no other row can change),
searched with `query._PASSING_HAS` off, then on with `PASSING_HAS_PLAINLY` 0 and 1; prints the
rows whose answer moved and the right / on-topic wrong / off-topic cards and card-or-first-three
of those rows per setting.

    python bench/pass52_diff.py [--slices dev18,...]

Tuning slices only (held-out slices are refused)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.offer_causes import TUNING, row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex, query  # noqa: E402

HAS = re.compile(
    r"\b(?:has|have|had|same(?: thing)? as|similar to|alternative to|something like)\b",
    re.IGNORECASE,
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join(TUNING))
    slices = set(parser.parse_args().slices.split(",")) - HELD_OUT
    index = SearchIndex.build(load_glossary())
    cases = [case for case in tuning_cases(slices) if HAS.search(case.query)]
    never = re.compile(r"(?!)")
    has, same = query._PASSING_HAS, query._PASSING_SAME
    # each read on its own and both: "X has ..." and "the same as X ..."
    settings = {
        "off": (never, never),
        "has": (has, never),
        "same": (never, same),
        "both": (has, same),
    }
    got: dict[str, list[tuple[str, str]]] = {}
    for name, (owning, beside) in settings.items():
        query._PASSING_HAS, query._PASSING_SAME = owning, beside
        answers = []
        for case in cases:
            result = index.search(case.query)
            shown = (
                result.entry.id if result.entry else ",".join(s.id for s in result.suggestions[:3])
            )
            answers.append((row_verdict(case, result), shown))
        got[name] = answers
    print(f"{len(cases)} rows")
    for name, answers in got.items():
        verdicts = [v for v, _ in answers]
        card3 = sum(v in ("right", "offer-first", "offer-3") for v in verdicts)
        print(
            f"{name}: right {verdicts.count('right')} wrong {verdicts.count('wrong')} "
            f"off-topic {verdicts.count('off-card')} card/3 {card3}"
        )
    for i, case in enumerate(cases):
        if len({got[n][i] for n in got}) > 1:
            moved = " | ".join(f"{n} {got[n][i][0]} {got[n][i][1]}" for n in got)
            print(f"{case.slice}\t{case.expected}\t{moved}\t{case.query}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
