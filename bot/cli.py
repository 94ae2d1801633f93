"""The `glossary-bot` command line: every command's arguments, and which function runs it.

The parser is declared here in full and imports nothing heavy, so `--help` and a mistyped option
answer at once; each command's handler (`"module:function"`) is imported only when it runs.
Handlers take the parsed arguments and return the exit status; commands marked `settings=True`
find the one `Settings` object (environment and `.env`) in `args.settings`.
"""

from __future__ import annotations

import argparse
import codecs
import errno
import functools
import importlib
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from bot.glossary import Glossary
    from bot.glossary.problems import Problem
    from bot.search.results import SearchResult

EXIT_USAGE = 2
MAX_LIMIT = 1000
MAX_DAYS = 100 * 366  # prune --older-than: far past any bot's life, far inside a datetime
RUN_BOT = "bot.discord_app.cli:run_bot"  # `run`: stops as a stop does even while it starts
PERIODS = ("day", "week", "month", "all")  # bot.storage.periods.PERIODS (a test keeps them equal)

Handler = Callable[[argparse.Namespace], int]


class Parser(argparse.ArgumentParser):
    """Usage errors in one line, naming the (sub)command and showing its own usage."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split()).removeprefix("usage: ")
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (usage: {usage})\n")

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        """argparse's own drops an OSError as it writes: `--help > file` on a full disk exited 0
        with nothing written. Written and flushed here, so that `main` says it in one line."""
        out = _standard_output("the help") if file is None else file
        out.write(self.format_help())
        getattr(out, "flush", lambda: None)()


def _utf8_output() -> None:
    """Write UTF-8 whatever the locale, as the files `-o` writes: a terminal or cron job in a
    legacy encoding (or PYTHONIOENCODING=ascii) ended `stats` in a UnicodeEncodeError at the
    first letter it lacked, and an export piped to a file could not be written whole."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if isinstance(stream, io.TextIOWrapper) and codecs.lookup(encoding).name != "utf-8":
            stream.reconfigure(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    _utf8_output()
    stderr = sys.stderr
    if stderr is not None:
        sys.stderr = _Diagnostics(stderr)
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr


class _Diagnostics:
    """Standard error, whose reader may have gone (`terms import f 2>&1 | head -1`, `| true`):
    what it could not take is dropped, and the command's own exit status stands. The
    BrokenPipeError reached `main`, which took it for `export | head`'s (stdout's reader gone, no
    error) and exited 0: an import refused, a missing file, a bad database, all "succeeded" to the
    script that ran them (outsider77)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def _gone(self) -> None:
        # What the stream still holds would fail again at every flush (and at exit): its file
        # descriptor now writes nowhere. A stream without one (a test's capture) has nothing held.
        try:
            fileno = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            return
        os.dup2(os.open(os.devnull, os.O_WRONLY), fileno)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _main(argv: Sequence[str] | None) -> int:
    from bot.errors import ReportedError

    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_named_command(arguments))
    try:
        # inside: `--version` prints as the arguments are read (its stdout may be a full disk)
        args, extra = parser.parse_known_args(arguments)
        if extra:  # reported by the subcommand that was given them, with its own usage
            getattr(args, "parser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
        if getattr(args, "handler", None) is None:
            return _default(parser)  # no command named: the whole parser
        _refuse_closed_output(args)
        if args.handler == RUN_BOT:
            _stop_while_starting()
        else:
            from bot.entry import hand_over

            hand_over()  # held since the program began: Ctrl-C 130, the others by the signal
        if args.settings:
            from bot.settings import load_settings

            args.settings = load_settings()
        handler: Handler = _resolve(args.handler)
        status = handler(args)
        _flush_output()
        return status
    except ReportedError as exc:
        print(f"glossary-bot: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `glossary-bot export | head`: what is left is not wanted
        _drop_output()
        return 0
    except OSError as exc:
        named = isinstance(exc.filename, str)
        if named and exc.errno in (errno.ENAMETOOLONG, errno.EACCES, errno.EPERM):
            # A text pasted where a path goes, or a file or folder this user may not read:
            # whichever command met it first, the name (cut short) is the thing to fix.
            name = exc.filename if len(exc.filename) <= 60 else exc.filename[:60] + "…"
            why = "" if exc.errno == errno.ENAMETOOLONG else f" to this user (uid {os.getuid()})"
            print(f"glossary-bot: error: cannot use {name}: {exc.strerror}{why}", file=sys.stderr)
            return 1
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            raise
        # The commands write their own files whole (or say so), and the database's writes fail
        # as the database's: this is their stdout, sent to a file on a disk that filled. What
        # could not be written is dropped, not retried.
        _drop_output()
        print(
            f"glossary-bot: error: cannot write the output: {exc.strerror}; what was written "
            "is cut short",
            file=sys.stderr,
        )
        return 1


def _resolve(reference: str) -> Handler:
    module, _, name = reference.partition(":")
    handler: Handler = getattr(importlib.import_module(module), name)
    return handler


def _named_command(arguments: Sequence[str]) -> str | None:
    """The command the arguments run, when parsing them needs no other command's parser: the
    first word, with only `--version` before it (the general help, an unknown word or option
    and anything else get the whole parser, so they read exactly as before)."""
    for argument in arguments:
        if argument != "--version":
            return argument if argument in COMMANDS else None
    return None


def build_parser(only: str | None = None) -> Parser:
    """The whole parser, or with `only` the top level and that one command: the same parse of
    arguments that name it, at a fraction of the cost (a parser per command adds up)."""
    parser = Parser(
        prog="glossary-bot",
        description="A Discord bot that answers term questions from curated glossaries.",
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, declare in COMMANDS.items():
        if only in (None, name):
            declare(functools.partial(_subcommand, sub, name))
    return parser


def _subcommand(
    sub: Any,
    name: str,
    handler: str | None,
    help: str,
    description: str,
    *,
    settings: bool = False,
    prints: bool = False,
) -> Parser:
    """`name` added to `sub` (a command, or an action of one), running `handler` when given;
    `prints`: what it prints is its point (see `_refuse_closed_output`)."""
    made: Parser = sub.add_parser(name, help=help, description=description)
    made.set_defaults(handler=handler, settings=settings, prints=prints, parser=made)
    return made


Command = Callable[..., Parser]  # `command(handler, help, description, settings=, prints=)`


def _check(command: Command) -> None:
    check = command(
        "bot.cli:run_check",
        "validate glossary data and report every problem",
        "Validate the bundled glossary (or the given files and folders) and report "
        "every problem with its file and entry. Exit 1 on errors (no entries is an error); "
        "warnings do not fail.",
    )
    check.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="files or folders")
    check.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    check.add_argument(
        "--db",
        type=_database,
        metavar="PATH|URL",
        help="also check each server's own terms and aliases in this database (a SQLite file "
        "or a postgresql:// URL, only read) against the glossary: what it would leave at odds",
    )
    check.add_argument(
        "--deep",
        action="store_true",
        help="with --db on a SQLite file: SQLite's full integrity check, and every stored text "
        "read (some 1.5 s per 100 MB, against 0.2 s), where the quick check reads no text "
        "(a postgresql:// URL: said, and checked as without it)",
    )


def _export(command: Command) -> None:
    export = command(
        "bot.cli:run_export",
        "print the whole loaded glossary as JSON",
        'Print {"sources": [...], "entries": [...]}: the source glossaries, and every field, '
        "alias and source of each entry.",
        prints=True,
    )
    data_option(export)


def _define(command: Command) -> None:
    define = command(
        "bot.cli:run_define",
        "show the card for a term in the terminal",
        "Look a term up as /define would and print its card.",
        prints=True,
    )
    define.add_argument("term", nargs="+", help="the term, e.g. kv cache")
    define.add_argument("--json", action="store_true", help="print the result as JSON")
    data_option(define)


def _search(command: Command) -> None:
    search = command(
        "bot.search.cli:run_search",
        "look up queries given as arguments or read from stdin, one result per line",
        "Look up each QUERY given, or else read queries from stdin, one per line, and write "
        "one result per line in the same order: a readable line, or with --json one JSON "
        'object per line ({"query", "status", "strategy", "name_written", "score", "entry",'
        ' "suggestions"}).',
        prints=True,
    )
    search.add_argument("queries", nargs="*", metavar="QUERY", help="a query (quote it)")
    search.add_argument("--json", action="store_true", help="write one JSON object per line")
    data_option(search)


def _relevance(command: Command) -> None:
    relevance = command(
        "bot.search.cli:run_relevance",
        "measure search quality on a relevance set, next to a naive baseline",
        "Print top-1, direct-answer and wrong-card rates per kind of query for this "
        "search and for a naive baseline (rapidfuzz extractOne with WRatio over all names).",
        prints=True,
    )
    relevance.add_argument(
        "--set",
        type=Path,
        metavar="TSV",
        help="the relevance set (default: tests/search/relevance.tsv, in a source checkout)",
    )
    relevance.add_argument("--misses", action="store_true", help="also list every miss")
    data_option(relevance)


def _stats(command: Command) -> None:
    stats = command(
        "bot.storage.cli:run_stats",
        "lookup counts, top terms and missed searches",
        "Show what people looked up and searched for without finding it.",
        settings=True,
        prints=True,
    )
    which = stats.add_mutually_exclusive_group()
    which.add_argument(
        "--guild", type=_guild_id, metavar="ID", help="one server (0: direct messages)"
    )
    which.add_argument(
        "--servers",
        action="store_true",
        help="list the servers the database holds, by id, with their lookups, aliases, terms "
        "and waiting suggestions (for --guild)",
    )
    stats.add_argument("--period", choices=PERIODS, default="all", help="default: all")
    stats.add_argument(
        "--limit",
        type=_bounded_int(1, MAX_LIMIT),
        default=10,
        help=f"rows per list, 1 to {MAX_LIMIT} (default: 10)",
    )
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument(
        "--chart",
        type=_file_name,
        metavar="PNG",
        help="also write the chart /stats shows to this file",
    )
    _db_option(stats)


def _aliases(command: Command) -> None:
    aliases = command(
        None,
        "export or import per-server aliases",
        "Export or import the aliases moderators added with /alias.",
    )
    actions = aliases.add_subparsers(dest="aliases_command", metavar="{export,import}")
    actions.required = True

    export = _subcommand(
        actions,
        "export",
        "bot.storage.cli:run_export",
        "print aliases as JSON",
        "Print aliases as a JSON list that `aliases import` reads back.",
        settings=True,
        prints=True,
    )
    export.add_argument("--guild", type=_guild_id, metavar="ID", help="one server (default: all)")
    _db_option(export)

    import_ = _subcommand(
        actions,
        "import",
        "bot.storage.cli:run_import",
        "add aliases from a JSON file",
        (
            "Add aliases from a JSON list of {guild_id, alias, entry_id} objects ('-' reads "
            "standard input). Each is checked like /alias add; refusals are reported on "
            "standard error and make the exit status 1."
        ),
        settings=True,
    )
    import_.add_argument("file", metavar="FILE")
    _db_option(import_)
    _quiet_option(import_)


def _backup(command: Command) -> None:
    backup = command(
        "bot.storage.cli:run_backup",
        "copy the database safely while the bot runs",
        "Copy the database with SQLite's online backup; safe while the bot runs.",
        settings=True,
    )
    backup.add_argument("path", type=_file_name, metavar="PATH", help="where to write the copy")
    _db_option(backup)
    _quiet_option(backup)


def _restore(command: Command) -> None:
    restore = command(
        "bot.storage.cli:run_restore",
        "put a backup in place of the database (the bot stopped)",
        "Put a copy of BACKUP in place of the database, without the write-ahead log a crashed "
        "bot left beside it (copied over by hand, SQLite would apply that log to the copy). "
        "Refused while a bot runs on the file; the database it replaces is kept beside it as "
        "PATH.before-restore (one an earlier restore kept there moves to PATH.before-restore.1, "
        "then .2; the three highest numbers are kept, older ones removed).",
        settings=True,
    )
    restore.add_argument("backup", type=Path, metavar="BACKUP", help="a file `backup` wrote")
    _db_option(restore)


def _migrate_db(command: Command) -> None:
    migrate = command(
        "bot.storage.migrate_db:run_migrate_db",
        "copy a SQLite database into PostgreSQL or another SQLite file",
        "Copy everything from a SQLite file into a PostgreSQL database (or another SQLite "
        "file), then check that the counts match. Stop the bot first.",
    )
    migrate.add_argument("--from", dest="source", required=True, metavar="SQLITE_FILE")
    migrate.add_argument("--to", dest="target", required=True, metavar="DATABASE_URL")
    migrate.add_argument(
        "--force",
        action="store_true",
        help="copy into a database that already holds data (counts, audit logs and suggestions are "
        "added to its own: the same copy run twice adds them twice)",
    )
    _quiet_option(migrate)


def _prune(command: Command) -> None:
    prune = command(
        "bot.storage.cli:run_prune",
        "remove old lookup counts and missed searches",
        "Remove the lookup counts and missed searches older than DAYS days, a batch at a "
        "time (safe while the bot runs). Aliases, server terms, suggestions and the audit logs "
        "are kept.",
        settings=True,
    )
    prune.add_argument(
        "--older-than",
        type=_bounded_int(1, MAX_DAYS),
        required=True,
        metavar="DAYS",
        help="remove what is older than this many days",
    )
    prune.add_argument("--dry-run", action="store_true", help="only say how much would be removed")
    prune.add_argument(
        "--vacuum",
        action="store_true",
        help="then give the freed space back to the disk (SQLite only; refused while a bot runs "
        "on the file; needs room for a copy of it)",
    )
    _db_option(prune)
    _quiet_option(prune)


def _terms(command: Command) -> None:
    terms = command(
        None,
        "export or import a server's own glossary terms",
        "Export or import the terms moderators write with /term, with /term import's rules; "
        "read their audit log.",
    )
    actions = terms.add_subparsers(dest="terms_command", metavar="{export,import,log}")
    actions.required = True
    export = _subcommand(
        actions,
        "export",
        "bot.terms_cli:run_export",
        "print a server's terms as curated TOML",
        "Print a server's terms as curated TOML that `terms import` reads back.",
        settings=True,
        prints=True,
    )
    export.add_argument("--guild", type=_guild_id, metavar="ID", required=True)
    export.add_argument(
        "--output", "-o", type=_output, help="write to this file (default, or '-': stdout)"
    )
    _db_option(export)
    import_ = _subcommand(
        actions,
        "import",
        "bot.terms_cli:run_import",
        "replace a server's terms with a file's (all or nothing)",
        "Replace a server's terms with a file's: curated TOML, the topics JSON or "
        "the Markdown glossary, checked as /term import checks it. Nothing is written if any "
        "problem is an error.",
        settings=True,
    )
    import_.add_argument("file", type=Path, help="the file to import ('-' reads standard input)")
    import_.add_argument("--guild", type=_server_id, metavar="ID", required=True)
    import_.add_argument("--dry-run", action="store_true", help="only say what would change")
    import_.add_argument(
        "--category", type=_category, help="the category of entries that give none"
    )
    _db_option(import_)
    log = _subcommand(
        actions,
        "log",
        "bot.terms_cli:run_log",
        "a server's recent term changes and decisions on suggestions",
        "Print a server's term audit log, newest first: who added, edited, removed "
        "or imported which term (changed fields before and after), and who accepted or "
        "rejected which member's suggestion, when.",
        settings=True,
        prints=True,
    )
    log.add_argument("--guild", type=_guild_id, metavar="ID", required=True)
    log.add_argument(
        "--limit",
        type=_bounded_int(1, MAX_LIMIT),
        default=50,
        help=f"entries, 1 to {MAX_LIMIT} (default: 50)",
    )
    log.add_argument("--json", action="store_true", help="print JSON")
    _db_option(log)


def _quiet_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="no progress line (none off a terminal either)"
    )


def _run(command: Command) -> None:
    command(
        RUN_BOT,
        "run the Discord bot (settings from the environment and .env)",
        "Connect to Discord and answer /define, mentions and 'Explain terms'. "
        "Settings come from the environment and a .env file; see .env.example.",
        settings=True,
    )


def _health(command: Command) -> None:
    health = command(
        "bot.discord_app.cli:run_health",
        "exit 0 if the running bot is healthy (fresh heartbeat), 1 if not, 2 if "
        "HEARTBEAT_PATH is not set",
        "Read the heartbeat file (HEARTBEAT_PATH) the bot keeps fresh while it is "
        "connected to Discord and can write its database. Exit 0 if the bot is healthy, 1 if "
        "not, 2 if HEARTBEAT_PATH is not set.",
        settings=True,
    )
    health.add_argument(
        "--max-age", type=_positive_float, default=None, help="seconds (default 45)"
    )


# Every command, in the order `--help` lists them.
COMMANDS: dict[str, Callable[[Command], None]] = {
    "check": _check,
    "export": _export,
    "define": _define,
    "search": _search,
    "relevance": _relevance,
    "stats": _stats,
    "aliases": _aliases,
    "backup": _backup,
    "restore": _restore,
    "migrate-db": _migrate_db,
    "prune": _prune,
    "terms": _terms,
    "run": _run,
    "health": _health,
}


def data_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        action="append",
        type=Path,
        metavar="PATH",
        help="glossary files or folders to load instead of the bundled data (repeatable)",
    )


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        type=_database,
        metavar="PATH|URL",
        help="a SQLite file or a postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)",
    )


def _database(text: str) -> str | Path:
    """A postgresql:// URL stays a string (a Path would fold its `//`), anything else a file."""
    from bot.storage.backend import is_database_url  # only when --db is given: start-up stays lean

    if not text:  # `--db=$UNSET`: Path("") is the current folder, which no command means
        raise argparse.ArgumentTypeError(
            "expected a database file or a postgresql:// URL, not an empty name"
        )
    return text if is_database_url(text) else Path(text)


def _file_name(text: str) -> Path:
    """A file the command writes itself (whole, beside and renamed): '-' is not standard output
    here, and was silently a file named "-"."""
    if text == "-":
        raise argparse.ArgumentTypeError("expected a file name; '-' (standard output) is not one")
    return Path(text)


def _output(text: str) -> Path | None:
    """-o FILE, where '-' is standard output, as for most commands."""
    return None if text == "-" else Path(text)


def _bounded_int(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {low} to {high}, not {text}")
        return value

    return parse


_guild_id = _bounded_int(0, 2**63 - 1)  # Discord ids are 64-bit; 0 is direct messages


def _server_id(text: str) -> int:
    """A server's id: server terms are never served in direct messages (0), so none go there."""
    value = _guild_id(text)
    if value == 0:
        raise argparse.ArgumentTypeError(
            "0 is direct messages, which have no server terms: give a server's id"
        )
    return value


def _category(text: str) -> str:
    """`terms import --category`: one of the categories, in any case (as a file's is read), as
    written there; another is the option's mistake, not each entry's (outsider76)."""
    from bot.glossary.models import (  # only when given: `--help` stays light
        CATEGORIES,
        category_named,
    )

    found = category_named(text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(
            f"unknown category {text!r} (one of: {', '.join(CATEGORIES)})"
        )
    return found


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, not {text}")
    return value


def _drop_output() -> None:
    """What stdout still holds is dropped: the write failed (a full disk, a pipe's reader gone),
    and Python's own flush at exit would fail again, printing "Exception ignored ...
    BrokenPipeError" and exiting 120 (unless PYTHONUNBUFFERED was set)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _standard_output(what: str) -> SupportsWrite[str]:
    """Standard output, for `--help` and `--version`, whose output is the point: started with it
    closed (`>&-`) they printed nothing and exited 0, so an operator learnt nothing. Now one line
    on stderr and exit 1, as on a full disk. (A pipe closed by its reader, `--help | head -1`,
    is no error: exit 0, as for every command.)"""
    if sys.stdout is None:
        from bot.errors import ReportedError

        raise ReportedError(f"error: cannot write {what}: standard output is closed")
    return sys.stdout


# Options naming a file a `prints` command writes its output to: given one, the command has
# output to write with standard output closed (`-o FILE`; `stats --chart PNG`, the picture).
_FILE_OUTPUTS = ("output", "chart")


def _refuse_closed_output(args: argparse.Namespace) -> None:
    """A command whose output is its point (`prints`: search, define, the exports, stats, ...)
    started with standard output closed (`>&-`) fails as `--help` does, before any work: it
    exited 0 having written nothing. `check` and `health` are not such commands: their exit
    status and stderr say what matters (review72 keeps `check >&-` at 0). A command told to
    write a file (`_FILE_OUTPUTS`) writes it: what it would print has nowhere to go, unsaid."""
    if args.prints and all(getattr(args, name, None) is None for name in _FILE_OUTPUTS):
        _standard_output("the output")


def _flush_output() -> None:
    """Standard output written now, so that a disk that filled behind `> file` is said by `main`,
    not at exit; None when the program started with it closed (`>&-`): nothing to write."""
    if sys.stdout is not None:
        sys.stdout.flush()


class _Version(argparse.Action):
    """`--version`, reading the installed version only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from bot import __version__

        # on stdout, as `--help` and every CLI's
        print(f"glossary-bot {__version__}", file=_standard_output("the version"))
        _flush_output()
        parser.exit(0)


def _stop_while_starting() -> None:
    """Until the bot's own handlers are in place (reading its settings and glossary, starting
    its loop), SIGTERM and Ctrl-C end it with exit 0, as a stop does, not killed by the signal
    (143) nor interrupted (130): nothing is counted or held yet; SIGHUP's reload is done once
    the loop runs."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    from bot.discord_app.cli import reload_when_running  # SIGHUP: the reload waits for the loop

    signal.signal(signal.SIGHUP, reload_when_running)
    from bot.entry import hand_over

    hand_over()  # a stop or reload since the program began is answered now


def _default(parser: argparse.ArgumentParser) -> int:
    """Plain `glossary-bot` runs the bot when a token is configured, else shows help."""
    from bot.settings import load_settings

    _stop_while_starting()
    settings = load_settings()
    if settings.discord_token is None:
        parser.print_help()
        return 0
    from bot.discord_app.runner import run_to_exit

    return run_to_exit(settings)


# -- the glossary's own commands -------------------------------------------------------------


def run_check(args: argparse.Namespace) -> int:
    from bot.glossary import inspect_glossary
    from bot.glossary.problems import reading_order
    from bot.progress import Progress

    if args.deep and args.db is None:  # alone it checked nothing more, and said nothing
        args.parser.error("--deep checks the database --db names: give --db too")
    if args.deep and not isinstance(args.db, Path):  # a postgresql:// URL: said, not ignored
        print(
            "check: --deep applies to a SQLite file only: PostgreSQL checks each text's "
            "encoding as it is written, so this database gets the usual check",
            file=sys.stderr,
        )
    with Progress("check", 3, quiet=args.quiet) as progress:
        glossary, problems = inspect_glossary(args.paths or None, stage=progress.stage)
    servers = None
    if args.db is not None:
        servers, more = _check_database(args.db, glossary, problems, deep=args.deep)
        problems = problems + more
    problems = reading_order(problems, file=lambda problem: problem.file)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    for problem in errors + ([] if args.quiet else warnings):
        print(problem)
    if not args.quiet:
        summary = ", ".join(f"{n:,} from {s.name}" for s, n in glossary.definitions_per_source())
        # On stdout with the problems it sums up: `check > report.txt` keeps the whole report.
        entries = f"{len(glossary):,} {'entry' if len(glossary) == 1 else 'entries'}"
        entries += f" ({summary})" if summary else ""  # no file read: the error line says why
        if servers is not None:
            entries += f", {servers:,} server{'' if servers == 1 else 's'} with aliases or terms"
        print(f"{entries}; {len(errors):,} error(s), {len(warnings):,} warning(s)")
    return 1 if errors else 0


def _check_database(
    location: str | Path, glossary: Glossary, problems: list[Problem], *, deep: bool = False
) -> tuple[int | None, list[Problem]]:
    """`check --db`: the servers' terms and aliases against a glossary without errors (None
    servers where none were read), or an error naming the database."""
    from bot.glossary.problems import Problem
    from bot.storage import StorageError
    from bot.storage.backend import shown_location
    from bot.storage.cli import check_servers
    from bot.storage.errors import said_of
    from bot.storage.sqlite.errors import not_a_database_file

    where = shown_location(location)
    if any(p.severity == "error" for p in problems):
        return None, [Problem("error", where, "not checked: the glossary has errors")]
    if isinstance(location, Path) and (what := not_a_database_file(location)):
        return None, [Problem("error", where, what)]
    if isinstance(location, Path) and not location.is_file():  # opening would make one
        return None, [Problem("error", where, "no database there (a SQLite file)")]
    try:
        return check_servers(location, glossary, deep=deep)
    except StorageError as exc:
        said = said_of(exc, where)
        return None, [Problem("error", where, f"cannot read the database: {said}")]


def run_export(args: argparse.Namespace) -> int:
    from bot.glossary import load_glossary

    glossary = load_glossary(args.data)
    payload = {
        "sources": [s.model_dump(mode="json") for s in glossary.sources],
        "entries": [e.model_dump(mode="json") for e in glossary],
    }
    json.dump(payload, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


def run_define(args: argparse.Namespace) -> int:
    from bot.cards.text import render_result_text
    from bot.search.cli import result_json

    glossary = _define_glossary(args.data)
    result = define_result(" ".join(args.term), glossary)
    if args.json:
        print(json.dumps(result_json(result), ensure_ascii=False))
    else:
        print(render_result_text(result, glossary))
    return 0 if result.entry is not None else 1


def define_result(query: str, glossary: Glossary) -> SearchResult:
    """`define`'s answer, the same as a full index's: an index for one query, whose stages past
    the names (and their imports: numpy, rapidfuzz, the model) are built only if it needs them."""
    from bot.search.index import SearchIndex

    index = SearchIndex.build(glossary, semantic="on demand", on_demand=True)
    return index.search(query)


def _define_glossary(paths: list[Path] | None) -> Glossary:
    """The bundled glossary from the cache of its last load while nothing that made it changed
    (a one-shot command pays for parsing otherwise); data given with --data is loaded afresh."""
    if paths:
        from bot.glossary import load_glossary

        return load_glossary(paths)
    from bot.cachedir import default_cache_dir
    from bot.glossary import bundled_data_dir
    from bot.glossary.cache import load_glossary_cached

    return load_glossary_cached(bundled_data_dir(), default_cache_dir())


if __name__ == "__main__":  # `python -m bot.cli`: the program, as the script runs it
    from bot.entry import main as program

    raise SystemExit(program())
