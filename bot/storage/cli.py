"""Operators' command line for the store: `stats`, `aliases export|import`, `backup`.

`add_subcommands` hangs these on the `glossary-bot` parser; each handler takes the parsed
arguments and returns the exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, cast

from .backup import backup_database
from .errors import StorageError
from .models import AddAliasStatus, AliasImport, Stats
from .periods import PERIODS, Period, period_start
from .store import Store

DEFAULT_DB = "glossary-bot.db"

AliasValidator = Callable[[str, str, int], str]
"""`(alias text, entry id, guild id) -> normalised key`; raises ValueError to refuse the alias.

The same checks `/alias add` makes (length, mentions, links, clashes with glossary names).
"""

KeyFunction = Callable[[str], str]


def add_subcommands(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    *,
    validator: AliasValidator | None = None,
) -> None:
    """Add `stats`, `aliases export`, `aliases import` and `backup` to the command line.

    `validator` checks imported aliases; by default `bot.aliases.validate_alias` when that
    module exists, otherwise imports are checked only for clashes with stored aliases.
    """
    stats = subparsers.add_parser(
        "stats",
        help="lookup counts, top terms and missed searches",
        description="Show what people looked up and searched for without finding it.",
    )
    stats.add_argument("--guild", type=int, metavar="ID", help="one server (0: direct messages)")
    stats.add_argument("--period", choices=PERIODS, default="all", help="default: all")
    stats.add_argument("--limit", type=int, default=10, help="rows per list (default: 10)")
    stats.add_argument("--json", action="store_true", help="print JSON")
    _add_db_option(stats)
    stats.set_defaults(func=run_stats)

    aliases = subparsers.add_parser(
        "aliases",
        help="export or import per-server aliases",
        description="Export or import the aliases moderators added with /alias.",
    )
    actions = aliases.add_subparsers(dest="aliases_command", metavar="{export,import}")
    actions.required = True

    export = actions.add_parser(
        "export",
        help="print aliases as JSON",
        description="Print aliases as a JSON list that `aliases import` reads back.",
    )
    export.add_argument("--guild", type=int, metavar="ID", help="one server (default: all)")
    _add_db_option(export)
    export.set_defaults(func=run_export)

    import_ = actions.add_parser(
        "import",
        help="add aliases from a JSON file",
        description=(
            "Add aliases from a JSON list of {guild_id, alias, entry_id} objects ('-' reads "
            "standard input). Each is checked like /alias add; refusals are reported on "
            "standard error and make the exit status 1."
        ),
    )
    import_.add_argument("file", metavar="FILE")
    _add_db_option(import_)
    import_.set_defaults(func=lambda args: run_import(args, validator=validator))

    backup = subparsers.add_parser(
        "backup",
        help="copy the database safely while the bot runs",
        description="Copy the database with SQLite's online backup; safe while the bot runs.",
    )
    backup.add_argument("path", metavar="PATH", help="where to write the copy")
    _add_db_option(backup)
    backup.set_defaults(func=run_backup)


def _add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        help=f"the database (default: $DATABASE_PATH, else ./{DEFAULT_DB})",
    )


def database_path(args: argparse.Namespace) -> Path:
    return Path(args.db or os.environ.get("DATABASE_PATH") or DEFAULT_DB)


def _fail(message: str) -> int:
    print(f"glossary-bot: error: {message}", file=sys.stderr)
    return 1


def _existing_database(args: argparse.Namespace) -> Path | None:
    path = database_path(args)
    if path.is_file():
        return path
    print(
        f"glossary-bot: error: there is no database at {path} (use --db or DATABASE_PATH)",
        file=sys.stderr,
    )
    return None


# -- stats -------------------------------------------------------------------------------------


def run_stats(args: argparse.Namespace) -> int:
    path = _existing_database(args)
    if path is None:
        return 1
    period = cast(Period, args.period)
    since = period_start(period, datetime.now(UTC))

    async def read() -> Stats:
        store = await Store.open(path, flush_interval=None, migrate=False)
        try:
            return await store.stats(args.guild, since, limit=args.limit)
        finally:
            await store.close()

    try:
        stats = asyncio.run(read())
    except StorageError as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps({"period": period, **stats.to_json()}, indent=2))
    else:
        print_stats(stats, period, sys.stdout)
    return 0


def print_stats(stats: Stats, period: Period, out: TextIO) -> None:
    where = "all servers" if stats.scope is None else f"server {stats.scope}"
    if stats.scope == 0:
        where = "direct messages"
    when = "all time" if period == "all" else f"the last {period}"
    out.write(f"Glossary Bot stats: {where}, {when}\n")
    out.write(f"Lookups: {stats.total_lookups}\n")
    out.write(f"Aliases: {stats.alias_count}\n")
    out.write("Top terms:\n")
    for entry_id, count in stats.top_terms:
        out.write(f"  {count:>8}  {entry_id}\n")
    if not stats.top_terms:
        out.write("  (none)\n")
    out.write("Top missed searches:\n")
    for miss in stats.top_misses:
        first = miss.first_seen.strftime("%Y-%m-%d %H:%M")
        last = miss.last_seen.strftime("%Y-%m-%d %H:%M")
        out.write(f"  {miss.count:>8}  {miss.query}  (first {first}, last {last} UTC)\n")
    if not stats.top_misses:
        out.write("  (none)\n")


# -- aliases export / import ---------------------------------------------------------------


def run_export(args: argparse.Namespace) -> int:
    path = _existing_database(args)
    if path is None:
        return 1

    async def read() -> list[dict[str, object]]:
        store = await Store.open(path, flush_interval=None, migrate=False)
        try:
            return await store.export_aliases(args.guild)
        finally:
            await store.close()

    try:
        aliases = asyncio.run(read())
    except StorageError as exc:
        return _fail(str(exc))
    print(json.dumps(aliases, indent=2, ensure_ascii=False))
    return 0


@dataclass(frozen=True, slots=True)
class _Wanted:
    position: int  # 1-based, in the file
    item: AliasImport

    def describe(self) -> str:
        return f"item {self.position} (guild {self.item.scope}, alias {self.item.text!r})"


def run_import(args: argparse.Namespace, *, validator: AliasValidator | None = None) -> int:
    try:
        raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        document = json.loads(raw)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _fail(f"cannot read {args.file}: {exc}")
    if not isinstance(document, list):
        return _fail(f"{args.file}: expected a JSON list of {{guild_id, alias, entry_id}} objects")

    validate, key_of = _checks(validator)
    wanted: list[_Wanted] = []
    failed = 0
    for position, entry in enumerate(document, start=1):
        try:
            scope, text, entry_id = _parse_item(entry)
            key = validate(text, entry_id, scope) if validate else key_of(text)
            if not key:
                raise ValueError("the alias is empty after normalisation")
        except ValueError as exc:
            print(f"item {position}: {exc}", file=sys.stderr)
            failed += 1
            continue
        wanted.append(_Wanted(position, AliasImport(scope, key, text, entry_id)))

    async def write() -> list[tuple[_Wanted, AddAliasStatus, str | None]]:
        store = await Store.open(database_path(args), flush_interval=None)
        try:
            results = await store.import_aliases([w.item for w in wanted])
        finally:
            await store.close()
        return [
            (w, r.status, r.alias.entry_id if r.alias else None)
            for w, r in zip(wanted, results, strict=True)
        ]

    try:
        outcomes = asyncio.run(write()) if wanted else []
    except StorageError as exc:
        return _fail(str(exc))

    added = unchanged = 0
    for want, status, existing in outcomes:
        if status is AddAliasStatus.ADDED:
            added += 1
        elif status is AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY:
            unchanged += 1
        elif status is AddAliasStatus.CONFLICT:
            failed += 1
            print(
                f"{want.describe()}: already names {existing!r}, not {want.item.entry_id!r}",
                file=sys.stderr,
            )
        else:
            failed += 1
            print(f"{want.describe()}: the server has reached its alias limit", file=sys.stderr)
    print(f"added {added}, already present {unchanged}, refused {failed}")
    return 1 if failed else 0


def _parse_item(entry: Any) -> tuple[int, str, str]:
    if not isinstance(entry, dict):
        raise ValueError("expected an object with guild_id, alias and entry_id")
    scope, text, entry_id = entry.get("guild_id"), entry.get("alias"), entry.get("entry_id")
    if not isinstance(scope, int) or isinstance(scope, bool) or scope < 0:
        raise ValueError("guild_id must be a non-negative integer (0 for direct messages)")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("alias must be a non-empty string")
    if not isinstance(entry_id, str) or not entry_id.strip():
        raise ValueError("entry_id must be a non-empty string")
    return scope, text, entry_id


def _checks(explicit: AliasValidator | None) -> tuple[AliasValidator | None, KeyFunction]:
    """The validator to use (if any) and the normaliser for keys when there is none."""
    validator = explicit or _find_validator()
    if validator is None:
        print(
            "note: bot.aliases.validate_alias is not available; "
            "checking only for clashes with stored aliases",
            file=sys.stderr,
        )
    return validator, _find_normalizer()


def _find_validator() -> AliasValidator | None:
    try:
        module = importlib.import_module("bot.aliases")
    except ImportError:
        return None
    candidate = getattr(module, "validate_alias", None)
    if not callable(candidate):
        return None
    try:
        inspect.signature(candidate).bind("alias", "entry-id", 0)
    except (TypeError, ValueError):
        print(
            "warning: bot.aliases.validate_alias does not take (alias, entry_id, guild_id); "
            "not using it",
            file=sys.stderr,
        )
        return None
    return cast(AliasValidator, candidate)


def _find_normalizer() -> KeyFunction:
    # Keys must be normalised exactly as the bot normalises what people type, or an imported
    # alias would never match. Imported here, at the edge: the store itself stays search-free.
    try:
        module = importlib.import_module("bot.glossary.keys")
        return cast(KeyFunction, module.normalize)
    except (ImportError, AttributeError):
        return lambda text: " ".join(text.casefold().split())


# -- backup ----------------------------------------------------------------------------------


def run_backup(args: argparse.Namespace) -> int:
    path = _existing_database(args)
    if path is None:
        return 1
    try:
        asyncio.run(backup_database(path, args.path))
    except StorageError as exc:
        return _fail(str(exc))
    print(f"backed up {path} to {args.path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point (`python -m bot.storage.cli`), for when the bot's CLI is absent."""
    parser = argparse.ArgumentParser(prog="glossary-bot", description="Glossary Bot storage tools")
    add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
