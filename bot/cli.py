"""The `glossary-bot` command line: run the bot, check and export the data, look terms up."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bot import __version__
from bot.glossary import (
    GlossaryError,
    inspect_glossary,
    load_glossary,
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        return _default(parser)
    try:
        code: int = args.func(args)
    except GlossaryError as exc:
        print(f"glossary-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `glossary-bot export | head`
        return 0
    return code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="glossary-bot",
        description="A Discord bot that answers term questions from curated glossaries.",
    )
    parser.add_argument("--version", action="version", version=f"glossary-bot {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    check = sub.add_parser(
        "check",
        help="validate glossary data and report every problem",
        description="Validate the bundled glossary (or the given files and folders) and report "
        "every problem with its file and entry. Exit 1 on errors; warnings do not fail.",
    )
    check.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files or folders")
    check.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    check.set_defaults(func=_check)

    export = sub.add_parser(
        "export",
        help="print the whole loaded glossary as JSON",
        description='Print {"entries": [...]} with every field, alias and source of each entry.',
    )
    data_option(export)
    export.set_defaults(func=_export)

    define = sub.add_parser(
        "define",
        help="show the card for a term in the terminal",
        description="Look a term up as /define would and print its card.",
    )
    define.add_argument("term", nargs="+", help="the term, e.g. kv cache")
    define.add_argument("--json", action="store_true", help="print the result as JSON")
    data_option(define)
    define.set_defaults(func=_define)

    for module in ("bot.search.cli", "bot.storage.cli", "bot.discord_app.cli"):
        _add_optional_subcommands(module, sub)
    return parser


def _add_optional_subcommands(
    module: str, sub: argparse._SubParsersAction[argparse.ArgumentParser]
) -> None:
    """Each feature package adds its own commands; a package not built yet adds none."""
    import importlib

    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return
        raise
    mod.add_subcommands(sub)


def data_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        action="append",
        type=Path,
        metavar="PATH",
        help="glossary files or folders to load instead of the bundled data (repeatable)",
    )


def _default(parser: argparse.ArgumentParser) -> int:
    """Plain `glossary-bot` runs the bot when a token is configured, else shows help."""
    from bot.settings import Settings

    try:
        has_token = Settings().discord_token is not None
    except ValueError:
        has_token = True  # let `run` explain the bad setting
    if has_token:
        from bot.discord_app.runner import run

        return run()
    parser.print_help()
    return 0


def _check(args: argparse.Namespace) -> int:
    glossary, problems = inspect_glossary(args.paths or None)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    for problem in errors + ([] if args.quiet else warnings):
        print(problem)
    summary = ", ".join(f"{n} from {s.name}" for s, n in glossary.definitions_per_source())
    print(
        f"{len(glossary)} entries ({summary}); {len(errors)} error(s), {len(warnings)} warning(s)",
        file=sys.stderr,
    )
    return 1 if errors else 0


def _export(args: argparse.Namespace) -> int:
    glossary = load_glossary(args.data)
    payload = {
        "sources": [s.model_dump(mode="json") for s in glossary.sources],
        "entries": [e.model_dump(mode="json") for e in glossary],
    }
    json.dump(payload, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


def _define(args: argparse.Namespace) -> int:
    from bot.cards.text import render_result_text
    from bot.search.cli import result_json
    from bot.search.index import SearchIndex

    glossary = load_glossary(args.data)
    query = " ".join(args.term)
    result = SearchIndex.build(glossary).search(query)
    if args.json:
        print(json.dumps(result_json(result), ensure_ascii=False))
    else:
        print(render_result_text(result, glossary))
    return 0 if result.entry is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
