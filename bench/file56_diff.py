"""Task file56: every tuning row that writes "file", opens with a pasted log line or asks
"what's X" before a comma, "?" or ";" (no other row can change), searched with file56's rules off and on; prints the rows whose answer moved and
the right / on-topic wrong / off-topic cards and card-or-first-three of those rows per setting.

    python bench/file56_diff.py [--slices dev19,...]

Tuning slices only (held-out slices are refused)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.search.index as index_module  # noqa: E402
import bot.search.query as query_module  # noqa: E402
from bench.offer_causes import TUNING, row_verdict  # noqa: E402
from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402

FILE = re.compile(r"file", re.IGNORECASE)
LINE = query_module._PASTED_LINE
# `query._PASTED_LINE` on main at d8c5eaf6, before file56 read a setting's number as a pasted line
MAIN_LINE = re.compile(
    r"^\s*(?:\[[^\]\n]{1,30}\]:?\s*)*(?:"
    r"(?i:info|warn|warning|error|alert|debug|critical|fatal)\s*[:\]|]|"
    r"[\w.]*(?:Error|Exception|Warning)\b|"
    r"(?i:epoch|step|iter|iteration)\s*\d|"
    r"[a-z][\w.]*\s*:\s*[^\n]*?(?:\d|=)"
    r")"
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slices", default=",".join((*TUNING, "dev19")))
    slices = set(parser.parse_args().slices.split(",")) - HELD_OUT
    index = SearchIndex.build(load_glossary())
    cases = [
        case
        for case in tuning_cases(slices)
        if (
            FILE.search(case.query)
            or LINE.match(case.query)
            or MAIN_LINE.match(case.query)
            or query_module._ASKED_FIRST.match(case.query)
        )
    ]
    file_named, bare, line = index_module.file_named, SearchIndex._bare_paste_offered, LINE
    first = SearchIndex._asked_first_named
    never_file, never_bare = (lambda core: None), (lambda self, result, *_: result)
    never_first = lambda self, *_: None  # noqa: E731
    # (the name before "file", a bare paste offered, a setting's number as a pasted line, the
    # name asked first before a remark)
    settings = {
        "off": (never_file, never_bare, MAIN_LINE, never_first),
        "file": (file_named, never_bare, MAIN_LINE, never_first),
        "bare+line": (never_file, bare, line, never_first),
        "first": (never_file, never_bare, MAIN_LINE, first),
        "all": (file_named, bare, line, first),
    }
    got: dict[str, list[tuple[str, str]]] = {}
    for name, (named_file, bare_paste, pasted_line, asked) in settings.items():
        index_module.file_named = named_file  # type: ignore[assignment]
        SearchIndex._bare_paste_offered = bare_paste  # type: ignore[method-assign]
        SearchIndex._asked_first_named = asked  # type: ignore[method-assign]
        query_module._PASTED_LINE = pasted_line
        answers = []
        for case in cases:
            result = index.search(case.query)
            shown = (
                result.entry.id if result.entry else ",".join(s.id for s in result.suggestions[:3])
            )
            answers.append((row_verdict(case, result), shown))
        got[name] = answers
    index_module.file_named, SearchIndex._bare_paste_offered = file_named, bare
    SearchIndex._asked_first_named = first  # type: ignore[method-assign]
    query_module._PASTED_LINE = line
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
