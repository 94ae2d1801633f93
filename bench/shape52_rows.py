"""Tuning questions offered first without a card, by the shape Discord people write them in
(issue #12 item 3, task "shape52"): which shape keeps the asked name from being read as asked.

    python bench/shape52_rows.py [--slices dev17,...] [--rows] [--all]

Tuning slices only (held-out slices are refused). The search's steps are read by
`bench/offer_causes.py`'s wrapping (nothing in `bot/search` changes for it). For every question
row a small classifier names its shape (the first that fits, in `SHAPES`' order) and whether the asked
entry's name is written (a title, acronym or alias as words: "written"), half-written (a word or
two within a couple of letters of one: "half"), or not at all ("no"). Counts by shape: all,
right and wrong cards, offered first (the right entry first, no card), with how many write the
name; `--rows` lists the rows offered first (`--all`: every question row) with the step that
decided each.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from rapidfuzz import fuzz

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import offer_causes  # noqa: E402
from bench.offer_causes import TUNING, cause, row_verdict, traced_cases  # noqa: E402
from bot.search import SearchIndex  # noqa: E402

_WORDS = re.compile(r"[a-z0-9]+(?:[.+'-][a-z0-9]+)*")
SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # a Discord quote of someone's line ("> you need cuda 12.1  what even is that"), then the ask
    ("quoted line first", re.compile(r"^\s*>")),
    # a log, config or code line before the question: key=value, key: 1.2, a traceback name,
    # a path or call, brackets and quotes of JSON, a shell prompt
    (
        "pasted line first",
        re.compile(
            r"^.{0,200}?(?:\w+=\S|\w+:\s*[-\d.]+\b|\b\w*(?:Error|Exception|Warning)\b|"
            r"[\w/]+\.(?:py|json|yaml|yml|gguf|safetensors|bin|sh)\b|\w+\(.*\)|[{}\[\]]|^\$ |"
            r"\bINFO\b|\bWARN\b|\bERROR\b|\bnan\b|\d+/\d+\b)",
        ),
    ),
    (
        "X vs Y / same as / difference",
        re.compile(
            r"\b(?:vs\.?|versus|same (?:thing )?as|difference between|differ|compared? to|"
            r"better than|or just|instead of)\b",
            re.I,
        ),
    ),
    (
        "greeting or @mention",
        re.compile(
            r"^\W*(?:hey|hi|hello|yo|gm|sup|hiya|howdy|good (?:morning|afternoon|evening)|"
            r"morning|evening|greetings|@\w+|<@)",
            re.I,
        ),
    ),
    (
        "follow-up",
        re.compile(
            r"^\W*(?:ok(?:ay)?|and|also|so|wait|thanks|thx|ty|sorry|one more|what about|"
            r"how about|follow.?up|then|right|cool|got it|makes sense|ah|oh|hmm|but|same)\b",
            re.I,
        ),
    ),
    ("eli5 / explain-like", re.compile(r"\beli5\b|\bexplain like\b|\bin simple terms\b", re.I)),
    (
        "emoji or markdown",
        re.compile(r"[\U0001F000-\U0001FFFF\u2600-\u27BF]|\*\*|__|`|^>|:[a-z_]+:|\|\|", re.I),
    ),
    (
        "slang",
        re.compile(
            r"\b(?:ngl|lowkey|tbh|lol|lmao|pls|plz|u|ur|idk|bro|fr|bruh|rn|imo|smh|kinda|"
            r"gonna|wanna|dunno|ya|yall|y'all|k)\b",
            re.I,
        ),
    ),
)


def shape_of(query: str) -> str:
    for name, pattern in SHAPES:
        if pattern.search(query):
            return name
    return "plain question"


def names_of(index: SearchIndex, entry_id: str) -> list[str]:
    entry = index.entries[index.positions[entry_id]]
    forms = [entry.title, *entry.aliases, *([entry.acronym] if entry.acronym else [])]
    return [" ".join(_WORDS.findall(f.lower())) for f in forms if f]


def written(index: SearchIndex, entry_id: str, query: str) -> str:
    """'written' when a name is there as words, 'half' when a run of as many words is near one
    (a typo, a missing letter, a plural), else 'no'."""
    words = _WORDS.findall(query.lower())
    text = f" {' '.join(words)} "
    names = [n for n in names_of(index, entry_id) if n]
    if any(f" {n} " in text for n in names):
        return "written"
    for name in names:
        size = len(name.split())
        for i in range(len(words) - size + 1):
            run = " ".join(words[i : i + size])
            if len(name) >= 4 and fuzz.ratio(run, name) >= 80:
                return "half"
    return "no"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    parser.add_argument("--all", action="store_true", help="--rows lists every question row")
    args, slices, index = offer_causes.traced_start(parser, TUNING)
    table: Counter[tuple[str, str, str]] = Counter()  # (shape, verdict, written)
    rows: list[str] = []
    for case, result, steps in traced_cases(index, slices, offer_causes.trace):
        if case.kind != "question":
            continue
        verdict = row_verdict(case, result)
        shape = shape_of(case.query)
        name = written(index, case.expected, case.query) if case.expected else "no"
        table[(shape, verdict, name)] += 1
        if args.rows and (args.all or verdict == "offer-first"):
            offers = ",".join(s.id for s in result.suggestions[:3])
            got = result.entry.id if result.entry else f"offers:{offers}"
            rows.append(
                f"{shape}\t{name}\t{case.slice}\t{verdict}\t{got}\t{cause(steps)}\t{case.query}"
            )
    print(
        "shape | questions (name written / half / no) | right cards | wrong cards "
        "| offered first (name written / half / no)"
    )
    for shape in [name for name, _ in SHAPES] + ["plain question"]:
        ways = ("written", "half", "no")
        every = [sum(n for (s, _, w), n in table.items() if s == shape and w == k) for k in ways]
        first = [table[(shape, "offer-first", k)] for k in ways]
        right = sum(table[(shape, "right", k)] for k in ways)
        wrong = sum(table[(shape, "wrong", k)] for k in ways)
        print(
            f"{shape} | {sum(every)} ({' / '.join(map(str, every))}) | {right} | {wrong} "
            f"| {sum(first)} ({' / '.join(map(str, first))})"
        )
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
