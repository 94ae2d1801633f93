"""`glossary-bot search` and `glossary-bot relevance`: the search core from a terminal.

`search` reads queries from stdin, one a line, and writes one result a line in the same order,
so it composes with files and pipes (`glossary-bot search --json < queries.txt`).
`relevance` prints the relevance table per kind next to the naive baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from bot.cli import data_option
from bot.search.results import SearchResult

DEFAULT_RELEVANCE_SET = Path("tests/search/relevance.tsv")


def add_subcommands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    search = subparsers.add_parser(
        "search",
        help="look up queries read from stdin, one result per line",
        description="Read queries from stdin, one per line, and write one result per line in "
        "the same order: a readable line, or with --json one JSON object per line "
        '({"query", "status", "strategy", "score", "entry", "suggestions"}).',
    )
    search.add_argument("--json", action="store_true", help="write one JSON object per line")
    data_option(search)
    search.set_defaults(func=run_search)

    relevance = subparsers.add_parser(
        "relevance",
        help="measure search quality on a relevance set, next to a naive baseline",
        description="Print top-1, direct-answer and wrong-card rates per kind of query for this "
        "search and for a naive baseline (rapidfuzz extractOne with WRatio over all names).",
    )
    relevance.add_argument(
        "--set",
        type=Path,
        default=DEFAULT_RELEVANCE_SET,
        metavar="TSV",
        help=f"the relevance set (default: {DEFAULT_RELEVANCE_SET})",
    )
    relevance.add_argument("--misses", action="store_true", help="also list every miss")
    data_option(relevance)
    relevance.set_defaults(func=run_relevance)


def run_search(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    from bot.glossary import load_glossary
    from bot.search.index import SearchIndex

    index = SearchIndex.build(load_glossary(args.data))
    for line in stdin or sys.stdin:
        result = index.search(line.rstrip("\r\n"))
        text = (
            json.dumps(result_json(result), ensure_ascii=False) if args.json else one_line(result)
        )
        print(text, flush=True)
    return 0


def run_relevance(args: argparse.Namespace) -> int:
    from bot.glossary import load_glossary
    from bot.search.index import SearchIndex
    from bot.search.relevance import NaiveBaseline, evaluate, format_table, load_cases

    glossary = load_glossary(args.data)
    cases = load_cases(args.set)
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
