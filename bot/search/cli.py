"""`glossary-bot search` and `glossary-bot relevance` (declared in bot/cli.py): search from a terminal.

`search` takes queries as arguments, or else reads them from stdin, one a line, and writes one
result a line in the same order, so it composes with files and pipes (`glossary-bot search
--json < queries.txt`).
`relevance` prints the relevance table per kind next to the naive baseline.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import TextIO

from bot.search.results import SearchResult

# The set the tests hold search to: read from a source checkout only, never from an installed
# package (it ships without tests).
CHECKOUT_RELEVANCE_SET = Path("tests/search/relevance.tsv")


def run_search(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    from bot.glossary import load_glossary
    from bot.search.asked import search_asked
    from bot.search.index import SearchIndex

    index = SearchIndex.build(load_glossary(args.data))
    queries = args.queries or (line.rstrip("\r\n") for line in stdin or sys.stdin)
    for query in queries:
        # Read as /define reads it ("rag https://…" asks about rag); the line still names
        # the query it answers, so piped output lines up with its input.
        result = dataclasses.replace(search_asked(index, query), query=query)
        text = (
            json.dumps(result_json(result), ensure_ascii=False) if args.json else one_line(result)
        )
        print(text, flush=True)
    return 0


def run_relevance(args: argparse.Namespace) -> int:
    from bot.glossary import load_glossary
    from bot.search.index import SearchIndex
    from bot.search.relevance import NaiveBaseline, evaluate, format_table, load_cases

    path: Path | None = args.set
    if path is None and CHECKOUT_RELEVANCE_SET.is_file():
        path = CHECKOUT_RELEVANCE_SET
    if path is None:
        print(
            "glossary-bot: no relevance set: give one with --set PATH "
            f"(a source checkout has {CHECKOUT_RELEVANCE_SET})",
            file=sys.stderr,
        )
        return 2
    if path.exists() and not (path.is_file() or path.is_dir()):  # /dev/zero never ends
        print(
            f"glossary-bot: cannot read the relevance set {path}: a device, not a file",
            file=sys.stderr,
        )
        return 1
    try:
        cases = load_cases(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc  # path once
        print(f"glossary-bot: cannot read the relevance set {path}: {why}", file=sys.stderr)
        return 1
    glossary = load_glossary(args.data)
    engine = evaluate(SearchIndex.build(glossary), cases)
    print(format_table(engine, NaiveBaseline(list(glossary)).evaluate(cases)))
    if args.misses and engine.misses:
        print("\nMisses:")
        print("\n".join(f"  {miss}" for miss in engine.misses))
    return 0


def result_json(result: SearchResult) -> dict[str, object]:
    """The `--json` line: the entry as `export` writes it, suggestions as id and title."""
    return {
        "query": result.query,
        "status": result.status,
        "strategy": result.strategy,
        # the card's name written in the text, though `strategy` decided it (the footer says so)
        "name_written": result.name_written,
        "score": result.score,
        "entry": result.entry.model_dump(mode="json") if result.entry else None,
        "suggestions": [{"id": s.id, "title": s.title} for s in result.suggestions],
    }


def one_line(result: SearchResult) -> str:
    """`"kv cahce" -> KV Cache [kv-cache] (fuzzy 89.3)`, and the like for choices and misses."""
    asked = json.dumps(result.query, ensure_ascii=False)
    if result.status == "match" and result.entry is not None:
        entry = result.entry
        return f"{asked} -> {entry.display_title} [{entry.id}] ({result.strategy} {result.score})"
    if result.status == "suggest":
        choices = ", ".join(f"{s.title} [{s.id}]" for s in result.suggestions)
        return f"{asked} -> did you mean: {choices} ({result.strategy} {result.score})"
    return f"{asked} -> no entry"
