"""Operators' command line for the store: `stats`, `aliases export|import`, `backup`, `prune`
(`migrate-db` is in migrate_db.py).

The arguments are declared in bot/cli.py; each handler here takes them (with the one `Settings`
in `args.settings`) and returns the exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, cast

from bot.dburl import url_problem, without_password
from bot.errors import ReportedError, print_error
from bot.progress import Progress
from bot.reach import LOOP, symlink_loop
from bot.settings import Settings
from bot.sizes import said_count, said_size

from .backend import Migrate
from .errors import ShardsTaken, StorageError
from .models import ALIAS_CAP, AddAliasResult, AddAliasStatus, AliasImport, Stats
from .periods import PERIOD_LABELS, Period, period_start
from .queries.counts import ServerHeld
from .sqlite.backup import backup_database, own_file
from .sqlite.errors import not_a_database_file
from .sqlite.run_lock import bot_running_on, command_holder, one_bot_per_file, what_runs
from .sqlite.vacuum import vacuum_database
from .store import Store

if TYPE_CHECKING:
    from bot.glossary import Glossary
    from bot.glossary.problems import Problem
    from bot.glossary.server_terms import ServerTerm

    from .models import StoredTerm

Result = TypeVar("Result")


def database_location(args: argparse.Namespace) -> str | Path:
    """`--db`, else DATABASE_URL (PostgreSQL) or DATABASE_PATH from the environment or `.env`."""
    settings: Settings = args.settings
    db: str | Path | None = args.db
    return db if db else settings.database_location


def on_store(
    path: str | Path,
    work: Callable[[Store], Awaitable[Result]],
    *,
    migrate: Migrate = Migrate.NEVER,
) -> Result:
    """Open the store at `path`, do `work` on it, close it; a StorageError passes through."""

    return asyncio.run(with_store(path, work, migrate=migrate))


async def with_store(
    path: str | Path,
    work: Callable[[Store], Awaitable[Result]],
    *,
    migrate: Migrate = Migrate.NEVER,
) -> Result:
    """`on_store`'s work, inside an event loop already running."""
    store = await Store.open(path, flush_interval=None, migrate=migrate, say_write_failures=False)
    try:
        return await work(store)
    except asyncio.CancelledError:  # Ctrl-C: a write under way still ends (all of it)
        await store.close()
        raise Interrupted(store.writes_committed) from None
    finally:
        await store.close()


def reading_store(path: str | Path, work: Callable[[Store], Awaitable[Result]]) -> Result:
    """`on_store` for a command that only reads: a snapshot alone in a read-only folder
    (`is_snapshot`) is read through a copy (`readable_copy`), as `backup` and `migrate-db` read it."""
    return asyncio.run(read_store(path, work))


async def read_store(path: str | Path, work: Callable[[Store], Awaitable[Result]]) -> Result:
    """`reading_store`'s work, inside an event loop already running."""
    if isinstance(path, str):  # PostgreSQL
        return await with_store(path, work)
    from .sqlite.backup import readable_copy

    async with readable_copy(path, str(path)) as readable:
        return await with_store(readable, work)


class Interrupted(ReportedError):
    """Ctrl-C while a command used the database. A write it had begun was finished (one
    transaction, never half of one), and the command's own report is lost with the rest: say
    which of the two it was, or an operator who stopped an import believes it did nothing."""

    exit_code = 130

    def __init__(self, writes: int) -> None:
        super().__init__(
            "interrupted after its changes were written in full (a write under way is finished, "
            "never left half-done)"
            if writes
            else "interrupted; nothing was written"
        )


def existing_database(args: argparse.Namespace) -> str | Path | None:
    path = database_location(args)
    if isinstance(path, str):  # a PostgreSQL URL
        return path
    if said := _no_database_file(args, path):  # a folder, a fifo, out of this user's reach
        print_error(said)
        return None
    if path.is_file():
        return path
    print_error(f"there is no database at {path} (use --db or DATABASE_PATH)")
    return None


def over_the_database(output: Path, location: str | Path, what: str) -> str | None:
    """Why `what` ("the chart") may not be written to `output`: it is the SQLite database at
    `location` or a file of its own (its `-wal`, its lock file), which the output, renamed into
    place, would replace: every count, alias and term gone. None where it may."""
    if isinstance(location, str):  # PostgreSQL: no file of the database's here
        return None
    own = own_file(output, location)
    return None if own is None else f"refusing to write {what} to {output}: {own}"


def _unusable_url(args: argparse.Namespace, url: str) -> str | None:
    """The setting naming `url` and why PostgreSQL's clients cannot use it, or None: said in
    place of pg_dump's or pg_restore's advice, which would hand them the same URL."""
    problem = url_problem(url)
    setting = "--db" if args.db else "DATABASE_URL"
    return None if problem is None else f"{setting} {without_password(url)}: {problem}"


def _no_database_file(args: argparse.Namespace, path: Path) -> str | None:
    """The setting naming `path` and why it is no database file (a folder, a fifo, …), or None."""
    what = not_a_database_file(path)
    return None if what is None else f"{'--db' if args.db else 'DATABASE_PATH'} {path} {what}"


# -- check --db --------------------------------------------------------------------------------


def check_servers(
    location: str | Path, glossary: Glossary, *, deep: bool = False
) -> tuple[int, list[Problem]]:
    """`check --db`: each server's terms and aliases in the database at `location` (read, never
    written) against `glossary`, as the bot would read them on it: how many servers have any,
    and a warning for each alias or term at odds (`bot.mismatches`) and each term that does not
    parse. StorageError when the database cannot be read; `deep`: a SQLite file's every index
    and stored text read first (`check_integrity`)."""
    from bot.glossary.problems import Problem
    from bot.mismatches import find_mismatches, mismatch_problems
    from bot.search.index import SearchIndex
    from bot.search.local import compile_local
    from bot.term_storage import parse_readable

    from .sqlite.backup import check_integrity, is_snapshot

    base = SearchIndex.build(glossary, semantic=False)  # names decide these, not meanings

    async def read(store: Store) -> list[tuple[int, dict[str, str], list[StoredTerm]]]:
        scopes = await store.term_scopes()
        return [(s, await store.aliases(s), await store.terms(s)) for s in scopes]

    if isinstance(location, Path) and (deep or not is_snapshot(location)):
        check_integrity(location, deep=deep)  # quick: a snapshot's copy checks it
    servers = reading_store(location, read)
    problems: list[Problem] = []
    for scope, aliases, stored in servers:
        terms, unreadable = parse_readable((scope, row) for row in stored)
        for _, term_id, why in unreadable:
            problems.append(Problem("warning", f"server {scope}", f"term {term_id!r}: {why}"))
        local = compile_local(glossary, base, terms, aliases)
        found = find_mismatches(local, glossary)
        problems += mismatch_problems(scope, found, glossary, {row.id for row in stored})
        problems += refused_since(scope, terms, aliases)
    return len(servers), problems


def refused_since(
    scope: int, terms: Sequence[ServerTerm], aliases: Mapping[str, str]
) -> list[Problem]:
    """`check --db`'s warnings for what a server stored before it was refused (review72): a
    term's reference URL no browser opens (a port not a number, no host, a control character),
    a term's name (frame72) or an alias that is only a question's wording or filler ("what
    is": `only_framing`), and a term's name or an alias search reads without the markup at its
    start ("# zorb": `markup_read_away`)."""
    from bot.glossary.check import reference_problem
    from bot.glossary.name_rules import framing_refusal, markup_read_away, markup_refusal
    from bot.glossary.problems import Problem
    from bot.search.query import only_framing

    where = f"server {scope}"
    ordered = sorted(terms, key=lambda t: t.id)
    problems = [
        Problem(
            "warning",
            where,
            f"term “{term.title}” (id {term.id!r}): {refused}, stored before such were "
            "refused: a new one by `terms import`",
        )
        for term in ordered
        if term.reference and (refused := reference_problem(term.reference))
    ]
    problems += [
        Problem(
            "warning",
            where,
            f"term “{term.title}” (id {term.id!r}): {framing_refusal(name, 'a name')} Stored "
            "before such names were refused, it is kept and shown: rename it (/term edit).",
        )
        for term in ordered
        for name in term.names
        if only_framing(name)
    ]
    problems += [
        Problem(
            "warning",
            where,
            f"term “{term.title}” (id {term.id!r}): {markup_refusal(name, read, 'a name')} "
            "Stored before such names were refused, it is kept and shown: rename it (/term edit).",
        )
        for term in ordered
        for name in term.names
        if not only_framing(name) and (read := markup_read_away(name)) is not None
    ]
    problems += [
        Problem("warning", where, f"alias {framing_refusal(alias)} Remove it (/alias remove).")
        for alias in sorted(aliases)
        if only_framing(alias)
    ]
    problems += [
        Problem(
            "warning",
            where,
            f"alias {markup_refusal(alias, read)} Stored before such were refused: remove it "
            "(/alias remove).",
        )
        for alias in sorted(aliases)
        if not only_framing(alias) and (read := markup_read_away(alias)) is not None
    ]
    return problems


# -- stats -------------------------------------------------------------------------------------


def run_stats(args: argparse.Namespace) -> int:
    path = existing_database(args)
    if path is None:
        return 1
    if args.chart and (said := over_the_database(args.chart, path, "the chart")):
        return print_error(said)
    if args.servers:
        return _list_servers(args, path)
    period = cast(Period, args.period)
    now = datetime.now(UTC)
    since = period_start(period, now)

    from bot.term_storage import parse_readable, rename_notes  # it imports this package

    bundled = _bundled(args.settings)

    async def server_terms(
        store: Store, scope: int
    ) -> tuple[list[ServerTerm], list[tuple[int, str, str]]]:
        """A server's terms (and those that do not parse), saying which ids the bot will
        rename."""
        stored = [(scope, row) for row in await store.terms(scope)]
        terms, unreadable = parse_readable(stored)
        ids = [row.id for _, row in stored]  # an unreadable term's id is taken too
        for note in rename_notes(scope, terms, bundled, ids) if bundled else []:
            print(note, file=sys.stderr)
        return terms, unreadable

    async def read(store: Store) -> tuple[Stats, dict[datetime, int], dict[str, str]]:
        stats = await store.stats(args.guild, since, limit=args.limit)
        hours = await store.lookups_by_hour(args.guild, since) if args.chart else {}
        if args.guild is not None:
            terms, unreadable = await server_terms(store, args.guild)
            titles = _titles(bundled, terms)
            # An unreadable term's id that a bundled entry has is named by the entry.
            return stats, hours, _unreadable_ids(unreadable, titles) | titles
        # Every server's: the renames of each server with a term of a bundled entry's id.
        taking = await store.terms_of_ids([entry.id for entry in bundled]) if bundled else []
        for scope in sorted({scope for scope, _ in taking}):
            await server_terms(store, scope)
        titles = _titles(bundled, [])
        # Every server's: a server's own term is named by its title there, each server's
        # title of an id (two servers may each have a term of it).
        unknown = [entry_id for entry_id, _ in stats.top_terms if entry_id not in titles]
        terms, unreadable = parse_readable(await store.terms_of_ids(unknown) if titles else [])
        named: dict[str, list[str]] = {}
        for term in terms:
            named.setdefault(term.id, []).append(term.display_title)
        titles |= _unreadable_ids(unreadable, titles)
        titles |= {entry_id: " / ".join(sorted(set(t))) for entry_id, t in named.items()}
        return stats, hours, titles

    async def read_all(store: Store) -> tuple[Stats, dict[datetime, int], dict[str, str]]:
        stats, hours, titles = await read(store)
        if bundled is None:  # no glossary to read them by: listed as stored
            return stats, hours, titles
        from bot.aliases import miss_answered, server_glossary_of

        # As /stats reads them: a miss that opens a card now by a name of its own is off the
        # list. One server's by its terms and aliases; every server's by the bundled names.
        terms: list[ServerTerm] = []
        aliases: dict[str, str] = {}
        if args.guild is not None:
            stored = [(args.guild, row) for row in await store.terms(args.guild)]
            terms, aliases = parse_readable(stored)[0], await store.aliases(args.guild)
        local = server_glossary_of(terms, args.settings.glossary_path_list, aliases)
        misses = [m for m in stats.top_misses if not miss_answered(m.query, local)]
        return replace(stats, top_misses=misses), hours, titles

    try:
        stats, hours, titles = reading_store(path, read_all)
    except StorageError as exc:
        return print_error(str(exc))
    if args.chart:
        problem = _write_chart(args, stats, hours, titles, since=since, now=now)
        if problem:
            return print_error(problem)
        if sys.stdout is None:  # `--chart PNG >&-`: the chart was the output asked for
            return 0
    if args.json:
        print(json.dumps({"period": period, **stats.to_json()}, indent=2))
    else:
        print_stats(stats, period, sys.stdout, titles)
    return 0


def _list_servers(args: argparse.Namespace, path: str | Path) -> int:
    """`stats --servers`: each server the database holds, by id (the bot stores no server
    names), so an operator finds the id `--guild` takes without an error naming one."""
    if args.chart or args.period != "all":
        return print_error("--servers lists every server's totals: it takes no --chart or --period")
    try:
        held = reading_store(path, lambda store: store.servers())
    except StorageError as exc:
        return print_error(str(exc))
    if args.json:
        print(json.dumps([{"guild_id": s.scope, **_held_counts(s)} for s in held], indent=2))
        return 0
    shown = without_password(path) if isinstance(path, str) else path
    print(
        f"Servers in {shown}: {len(held):,} (by id: the bot stores no server names; "
        "`stats --guild ID` shows one)"
    )
    for server in held:
        counts = _held_counts(server)
        said = ", ".join(
            said_count(n, one, many)
            for n, (one, many) in zip(counts.values(), _HELD_NOUNS, strict=True)
        )
        where = "  (direct messages)" if server.scope == 0 else ""
        print(f"  {server.scope:>20}  {said}{where}")
    if not held:
        print("  (none)")
    return 0


_HELD_NOUNS = (
    ("lookup", None),
    ("alias", "aliases"),
    ("term", None),
    ("suggestion waiting", "suggestions waiting"),
)


def _held_counts(server: ServerHeld) -> dict[str, int]:
    return {
        "lookups": server.lookups,
        "aliases": server.aliases,
        "terms": server.terms,
        "open_suggestions": server.open_suggestions,
    }


def _unreadable_ids(
    unreadable: list[tuple[int, str, str]], titles: Mapping[str, str]
) -> dict[str, str]:
    """The ids of the stored terms that do not parse, each named by itself: one warning line
    each (naming the glossary's title that shows its lookups, if an entry has the id), not a
    traceback instead of the stats."""
    for scope, term_id, why in unreadable:
        shown = f"under the glossary's “{titles[term_id]}”" if term_id in titles else "by id"
        print(
            f"glossary-bot: warning: server {scope}'s stored term {term_id!r} cannot be read "
            f"({why}): its lookups are shown {shown}",
            file=sys.stderr,
        )
    return {term_id: term_id for _, term_id, _ in unreadable}


def _bundled(settings: Settings) -> Glossary | None:
    """The glossary the bot serves; None if it cannot be read (ids are shown)."""
    from bot.glossary import GlossaryError, load_glossary

    try:
        return load_glossary(settings.glossary_path_list)
    except GlossaryError:
        return None


def _titles(bundled: Glossary | None, server_terms: list[ServerTerm]) -> dict[str, str]:
    """Entry id -> the title `/stats` shows: the glossary the bot serves, with the server's own
    terms when one server is asked for; empty without a glossary (ids are shown)."""
    from bot.glossary.server_terms import server_glossary

    if bundled is None:
        return {}
    return {entry.id: entry.display_title for entry in server_glossary(bundled, server_terms)}


def _write_chart(
    args: argparse.Namespace,
    stats: Stats,
    hours: dict[datetime, int],
    titles: dict[str, str],
    *,
    since: datetime | None,
    now: datetime,
) -> str | None:
    """Draw what /stats attaches into `args.chart`; a problem in one line, or None."""
    from bot.cards.chart import lookups_chart

    named = [(_named(titles, e), n) for e, n in stats.top_terms]
    when = PERIOD_LABELS["all" if since is None else args.period]
    title = f"Glossary lookups, {when}: {stats.total_lookups:,}"
    try:
        write_whole(args.chart, lookups_chart(hours, named, since=since, now=now, title=title))
    except OSError as exc:
        return f"cannot write the chart to {args.chart}: {exc.strerror or exc}"
    return None


def write_whole(path: Path, data: bytes) -> None:
    """Write `data` to the file `path` whole or not at all: a disk that fills leaves neither a
    cut file that looks like an export nor yesterday's file half-overwritten. A device, pipe or
    symlink (`/dev/stdout`) is written through as it is: renaming over a symlink would replace
    the link, not write where it points."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        path.write_bytes(data)
        return
    kept_mode = path.stat().st_mode & 0o7777 if path.exists() else None
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_bytes(data)
        if kept_mode is not None:  # a file made private stays private
            partial.chmod(kept_mode)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def _named(titles: Mapping[str, str], entry_id: str) -> str:
    """A top term as `/stats` names it; the id when no glossary could be read."""
    if entry_id in titles or not titles:
        return titles.get(entry_id, entry_id)
    # Lookups of a term since removed (a server's own, or one a reload dropped) stay counted.
    return f"{entry_id} (removed)"


def print_stats(
    stats: Stats, period: Period, out: TextIO, titles: Mapping[str, str] | None = None
) -> None:
    where = "all servers" if stats.scope is None else f"server {stats.scope}"
    if stats.scope == 0:
        where = "direct messages"
    when = PERIOD_LABELS[period]
    out.write(f"Glossary Bot stats: {where}, {when}\n")
    out.write(f"Lookups: {stats.total_lookups:,}\n")
    out.write(f"Aliases: {stats.alias_count:,}\n")
    out.write(f"Server terms: {stats.term_count:,}\n")
    waiting = ", ".join(f"{n:,} {status}" for status, n in stats.suggestions.items())
    out.write(f"Suggestions: {waiting}\n")
    out.write("Top terms:\n")
    for entry_id, count in stats.top_terms:
        name = _named(titles or {}, entry_id)
        beside = f"  [{entry_id}]" if entry_id in (titles or {}) else ""  # for operators
        out.write(f"  {count:>8,}  {name}{beside}\n")
    if not stats.top_terms:
        out.write("  (none)\n")
    out.write("Top missed searches:\n")
    for miss in stats.top_misses:
        first = miss.first_seen.strftime("%Y-%m-%d %H:%M")
        last = miss.last_seen.strftime("%Y-%m-%d %H:%M")
        out.write(f"  {miss.count:>8,}  {miss.query}  (first {first}, last {last} UTC)\n")
    if not stats.top_misses:
        out.write("  (none)\n")


# -- aliases export / import ---------------------------------------------------------------


def run_export(args: argparse.Namespace) -> int:
    path = existing_database(args)
    if path is None:
        return 1

    try:
        aliases = reading_store(path, lambda store: store.export_aliases(args.guild))
    except StorageError as exc:
        return print_error(str(exc))
    print(json.dumps(aliases, indent=2, ensure_ascii=False))
    return 0


# The largest alias file `aliases import` reads: room for an export (`aliases export`, indented
# JSON) of ALIAS_IMPORT_SERVERS servers at the alias cap with every alias at its longest
# (EXPORT_BYTES_PER_ALIAS: 100 characters of 4 UTF-8 bytes, as typed and as its key, an id, two
# ids and a time), some 40 times as many aliases as typical ones (about 200 bytes each). A file
# read whole and parsed at once is some ten times its size in memory: 32 MiB, some 350 MB.
EXPORT_BYTES_PER_ALIAS = 1024
ALIAS_IMPORT_SERVERS = 32
ALIAS_IMPORT_BYTES = EXPORT_BYTES_PER_ALIAS * ALIAS_CAP * ALIAS_IMPORT_SERVERS
ALIAS_IMPORT_SPLIT = (
    "export and import a server at a time with `--guild ID`, or copy a whole database with "
    "`migrate-db`"
)
MAX_GUILD_ID = 2**63 - 1  # what the databases' signed 64-bit integers hold
AT_ALIAS_CAP = f"the server has reached its alias limit ({ALIAS_CAP:,})"


@dataclass(frozen=True, slots=True)
class _Wanted:
    position: int  # 1-based, in the file
    item: AliasImport

    def describe(self) -> str:
        return f"item {self.position} (guild {self.item.scope}, alias {self.item.text!r})"


def run_import(args: argparse.Namespace) -> int:
    # Checked exactly as /alias add checks them (an edge of the command line, so it may reach
    # the alias rules; the store itself stays search-free).
    from bot.aliases import compiled_aliases, server_glossary_of, validate_alias
    from bot.glossary.interchange import decode_text
    from bot.glossary.keys import compact, normalize
    from bot.glossary.markup import for_terminal
    from bot.search.local import LocalGlossary
    from bot.search.query import read_alone
    from bot.search.server_aliases import ServerAliases
    from bot.term_import import at_most, too_big
    from bot.term_storage import accept_as_operator, parse_terms, untold_line

    named = "standard input" if args.file == "-" else args.file  # `aliases import -`
    try:
        if args.file != "-" and Path(args.file).is_char_device():
            # /dev/zero never ends
            return print_error(f"cannot read {args.file}: a device, not a file")
        # Bounded as `terms import` is: refused by its size before it is read, a pipe (or a
        # file that grew) read no further than one byte past the bound.
        if args.file != "-" and (
            refusal := too_big(named, Path(args.file).stat().st_size, ALIAS_IMPORT_BYTES)
        ):
            return print_error(refusal + f" ({ALIAS_IMPORT_SPLIT})")
        with (
            contextlib.nullcontext(sys.stdin.buffer)
            if args.file == "-"
            else Path(args.file).open("rb")
        ) as file:
            data = file.read(ALIAS_IMPORT_BYTES + 1)
        if len(data) > ALIAS_IMPORT_BYTES:
            return print_error(
                f"{named} is too big: {at_most(ALIAS_IMPORT_BYTES)} ({ALIAS_IMPORT_SPLIT})"
            )
        raw, not_text = decode_text(data)  # Windows editors start with a BOM: dropped
        if not_text:
            return print_error(f"cannot read {named}: {not_text}")
        document = json.loads(raw)
    except json.JSONDecodeError as exc:  # a CSV saved from a sheet, most often
        return print_error(
            f"cannot read {named}: not JSON ({exc.msg}, line {exc.lineno}): expected a JSON "
            "list of {guild_id, alias, entry_id} objects"
        )
    except OSError as exc:
        return print_error(f"cannot read {named}: {exc.strerror or exc}")
    except RecursionError:
        return print_error(f"cannot read {named}: nested too deeply")
    if not isinstance(document, list):
        return print_error(
            f"{named}: expected a JSON list of {{guild_id, alias, entry_id}} objects"
        )

    parsed: list[tuple[int, tuple[int, str, str]]] = []
    refusals: dict[int, str] = {}  # item -> why, printed in the file's order
    progress = Progress("import: checking aliases", len(document), quiet=args.quiet)
    for position, entry in enumerate(document, start=1):
        progress.update(position)
        try:
            parsed.append((position, _parse_item(entry)))
        except ValueError as exc:
            refusals[position] = str(exc)
    accepted = 0  # waiting suggestions of a name added (`accept_as_operator`)
    stopped = False  # the database failed before every one was accepted
    # The names of those accepted, whichever server: one name in two servers is "that name".
    accepted_names: set[str] = set()
    settings: Settings = args.settings

    async def check_and_write(
        store: Store, lines: list[tuple[int, tuple[int, str, str]]]
    ) -> list[tuple[_Wanted, AddAliasResult]]:
        # Each alias is checked against its server's own terms, stored aliases and the file's
        # earlier lines, as /alias add checks it in that server.
        # A server's aliases as stored plus the lines accepted so far, compiled once and grown
        # line by line (their look-alike index with them).
        servers: dict[int, ServerAliases] = {}
        read: dict[int, dict[str, str]] = {}  # as read, for the check inside the write
        glossaries: dict[int, LocalGlossary] = {}
        own: set[tuple[int, str]] = set()  # the servers' own terms (not bundled) lines name
        # Each server's terms version, read before its terms: a term the bot writes meanwhile
        # (perhaps of a line's name) moves it, and the write then adds none of its lines.
        terms_seen: dict[int, int] = {}
        wanted: list[_Wanted] = []
        for position, (scope, text, entry_id) in lines:
            if scope not in servers:
                terms_seen[scope] = await store.terms_version(scope)
                read[scope] = await store.aliases(scope)
                terms = parse_terms(await store.terms(scope))
                glossaries[scope] = server_glossary_of(terms, settings.glossary_path_list)
                servers[scope] = compiled_aliases(glossaries[scope], read[scope])
                base = glossaries[scope].base
                own |= {(scope, t.id) for t in terms if base.entry(t.id) is None}
            held = servers[scope].source  # stored, and accepted so far: at the cap, the rest wait
            if len(held) >= ALIAS_CAP and normalize(text) not in held:
                # Refused without the clash check, whose cost grows with the aliases: a file
                # of 600,000 lines for one server ran for hours.
                refusals[position] = AT_ALIAS_CAP
                continue
            try:
                key = validate_alias(text, entry_id, glossaries[scope].index, servers[scope])
            except ValueError as exc:
                refusals[position] = str(exc)
                continue
            servers[scope].add(key, entry_id)
            wanted.append(_Wanted(position, AliasImport(scope, key, text, entry_id)))
        unchanged: dict[int, bool] = {}
        rechecked: dict[int, ServerAliases] = {}

        def still_free(item: AliasImport, stored: Mapping[str, str]) -> str | None:
            # Inside the write: a server whose aliases another process changed since they were
            # read above (the bot, a second import) has its lines checked again against them.
            # The first line of a server sees them before this import adds any.
            if unchanged.setdefault(item.scope, stored == read[item.scope]):
                return None
            # compiled once, then caught up with the lines the write has stored since
            if item.scope not in rechecked:
                rechecked[item.scope] = compiled_aliases(glossaries[item.scope], stored)
            rechecked[item.scope].catch_up(stored)
            try:
                index = glossaries[item.scope].index
                validate_alias(item.text, item.entry_id, index, rechecked[item.scope])
            except ValueError as exc:
                return str(exc)
            return None

        # The checks above wait only to read a server's rows: a Ctrl-C during the checking
        # after that is taken here, before the write begins (once begun, it is finished whole).
        await asyncio.sleep(0)
        # A term removed (by the bot) since it was read here: its alias would be left behind.
        results = await store.import_aliases(
            [w.item for w in wanted], check=still_free, own_terms=own, terms_seen=terms_seen
        )
        return list(zip(wanted, results, strict=True))

    async def check_and_import(store: Store) -> list[tuple[_Wanted, AddAliasResult]]:
        nonlocal accepted, stopped
        done = await check_and_write(store, parsed)
        # A server whose terms another process wrote meanwhile had none of its lines added:
        # they are read, checked and written again once, against its terms as they are now.
        moved = {w.item.scope for w, r in done if r.status is AddAliasStatus.TERMS_CHANGED}
        if moved:
            again = [(position, line) for position, line in parsed if line[0] in moved]
            for position, _ in again:
                refusals.pop(position, None)
            done = [(w, r) for w, r in done if w.item.scope not in moved]
            done += await check_and_write(store, again)
            done.sort(key=lambda outcome: outcome[0].position)
        # Members who suggested a name an alias now has were waiting for it: accept them.
        named: dict[int, dict[str, str]] = {}
        for want, result in done:
            if result.status is AddAliasStatus.ADDED:
                item = want.item
                named.setdefault(item.scope, {})[compact(item.text)] = item.entry_id
        for scope, by_name in named.items():
            taken, stopped, names = await accept_as_operator(
                store, scope, by_name, read_as=read_alone
            )
            accepted += taken
            accepted_names.update(names)
            if stopped:
                break
        return done

    progress.close()
    try:
        with Progress(f"import: writing {len(parsed):,} aliases", quiet=args.quiet) as writing:
            writing.update(0)
            done = (
                # A new database is made; an older one is left to the bot to upgrade.
                on_store(database_location(args), check_and_import, migrate=Migrate.CREATE_ONLY)
                if parsed
                else []
            )
    except StorageError as exc:
        return print_error(str(exc))
    for position in sorted(refusals):
        print(f"item {position}: {for_terminal(refusals[position])}", file=sys.stderr)
    failed = len(refusals)
    outcomes = [(w, r.status, r.alias.entry_id if r.alias else None, r.reason) for w, r in done]

    added = unchanged = 0
    moved: Counter[int] = Counter()  # server -> its lines not added: its terms changed meanwhile
    for want, status, existing, reason in outcomes:
        if status is AddAliasStatus.ADDED:
            added += 1
        elif status is AddAliasStatus.ALREADY_EXISTS_SAME_ENTRY:
            unchanged += 1
        elif status is AddAliasStatus.REFUSED:
            failed += 1
            print(f"{want.describe()}: {reason}", file=sys.stderr)
        elif status is AddAliasStatus.CONFLICT:
            failed += 1
            print(
                f"{want.describe()}: already names {existing!r}, not {want.item.entry_id!r}",
                file=sys.stderr,
            )
        elif status is AddAliasStatus.TERM_GONE:
            failed += 1
            print(
                f"{want.describe()}: the server's term {want.item.entry_id!r} was removed "
                "since this file was checked",
                file=sys.stderr,
            )
        elif status is AddAliasStatus.TERMS_CHANGED:  # said once for its server, below
            failed += 1
            moved[want.item.scope] += 1
        else:
            failed += 1
            print(f"{want.describe()}: {AT_ALIAS_CAP}", file=sys.stderr)
    for scope, lines in moved.items():
        print(
            f"guild {scope}: its terms changed while this file was checked, and again as it was "
            f"checked once more (the bot writing them), so {lines:,} of its lines "
            f"{'was' if lines == 1 else 'were'} not added: run the import again",
            file=sys.stderr,
        )
    print(
        f"added {added:,}, already present {unchanged:,}, refused {failed:,}"
        + untold_line(accepted, stopped=stopped, names=len(accepted_names))
    )
    return 1 if failed else 0


def _parse_item(entry: Any) -> tuple[int, str, str]:
    if not isinstance(entry, dict):
        raise ValueError("expected an object with guild_id, alias and entry_id")
    missing = [key for key in ("guild_id", "alias", "entry_id") if key not in entry]
    if missing:  # other names for them ("guild", "term"): say so, not that a value is wrong
        has = f" (it has {', '.join(map(repr, entry))})" if entry else ""
        raise ValueError(f"no {' and no '.join(missing)}{has}")
    scope, text, entry_id = entry.get("guild_id"), entry.get("alias"), entry.get("entry_id")
    if not isinstance(scope, int) or isinstance(scope, bool) or not 0 <= scope <= MAX_GUILD_ID:
        raise ValueError(
            f"guild_id must be a non-negative integer (0 for direct messages), at most {MAX_GUILD_ID}"
        )
    if not isinstance(text, str) or not text.strip():
        raise ValueError("alias must be a non-empty string")
    if not isinstance(entry_id, str) or not entry_id.strip():
        raise ValueError("entry_id must be a non-empty string")
    return scope, text, entry_id


# -- backup ----------------------------------------------------------------------------------


def run_backup(args: argparse.Namespace) -> int:
    path = existing_database(args)
    if path is None:
        return 1
    problem = _unwritable_destination(args.path)  # pg_dump's file too: refused alike
    if problem:
        return print_error(f"cannot write the backup to {args.path}: {problem}")
    if isinstance(path, str):  # PostgreSQL makes its own consistent copies
        from .postgres.backend import backup_advice

        if said := _unusable_url(args, path):
            return print_error(said)
        return print_error(backup_advice(without_password(path), str(args.path)))
    size = said_size(path.stat().st_size)
    try:
        with Progress(f"backup: copying {size}", quiet=args.quiet) as copying:
            copying.update(0)  # one step: SQLite copies a consistent snapshot in one go
            asyncio.run(backup_database(path, args.path))
    except StorageError as exc:
        return print_error(str(exc))
    print(f"backed up {path} to {args.path}")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from .sqlite.restore import KEPT_EARLIER, Kept, check_backup, is_sqlite_file, restore_file

    location = database_location(args)
    unchanged = "; nothing was changed"
    if isinstance(location, str):  # PostgreSQL restores its own dumps
        from .postgres.backend import restore_advice

        if said := _unusable_url(args, location):
            return print_error(said + unchanged)
        advice = restore_advice(
            without_password(location), str(args.backup), sqlite=is_sqlite_file(args.backup)
        )
        return print_error(advice + unchanged)
    try:
        check_backup(args.backup)
    except StorageError as exc:
        return print_error(f"{exc}{unchanged}")
    if said := _no_database_file(args, location):
        return print_error(said + unchanged)
    if not location.parent.is_dir():
        return print_error(f"{location} is not a database file in an existing folder{unchanged}")

    async def restore() -> Kept:
        # No bot may run on the file: it would go on writing through the old file's log.
        holder = command_holder("restore")
        async with one_bot_per_file(str(location), holder=holder, wait=0, command=True):
            return await asyncio.to_thread(restore_file, args.backup, location)

    try:
        done = asyncio.run(restore())
    except ShardsTaken as exc:
        running = ", ".join(exc.holders) or "another process"
        return print_error(
            f"{location}: {what_runs(running)} runs on this file ({running}); stop it first{unchanged}"
        )
    except StorageError as exc:
        return print_error(str(exc))
    print(f"restored {location} from {args.backup}")
    kept, earlier = done.kept, done.earlier
    if kept is not None:
        log = Path(f"{kept}-wal")  # kept only when it holds something (`_keep`)
        print(
            f"the database it replaced is kept as {kept}, its write-ahead log as {log} "
            "(remove both when done)"
            if log.exists()
            else f"the database it replaced is kept as {kept} (remove it when done)"
        )
    if earlier is not None:
        print(f"the copy an earlier restore kept is now {earlier} (remove it when done)")
    if done.removed:
        print(
            f"removed the oldest copies earlier restores kept ({KEPT_EARLIER} are kept beside "
            f"the one just made): {', '.join(map(str, done.removed))}"
        )
    for link, target in done.unlinked:
        if target is None:
            print(f"removed the link {link}: it led through {LOOP}, to no database")
            continue
        print(
            f"removed the link {link} among the oldest copies earlier restores kept; the "
            f"database it points at, {target}, stays (remove it when done)"
        )
    return 0


def _unwritable_destination(dest: Path) -> str | None:
    """Why the copy cannot go to `dest`, so the error blames the destination, not the database."""
    if symlink_loop(dest):  # resolved before the copy: a traceback
        return f"it is reached through {LOOP}"
    if dest.is_dir():
        # Not "glossary-bot.db": beside the default DATABASE_PATH that is the database itself.
        return "that is a folder; give a file name, e.g. " + str(dest / "glossary-bot-backup.db")
    if dest.exists() and not dest.is_file():  # a device or pipe, e.g. /dev/null: never replace it
        return "that is not a regular file"
    running = bot_running_on(str(dest)) if dest.is_file() else None
    if running:  # renamed over, the bot's own data would go (arguments the wrong way round?)
        return f"{what_runs(running)} runs on that database ({running}); name another file"
    folder = dest.parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


# -- prune -----------------------------------------------------------------------------------

# What `prune` removes from each table, in words (`Store.prune`'s tables).
_PRUNED_ROWS = {
    "lookups": ("hourly lookup count", "hourly lookup counts", "from before"),
    "miss_hours": (
        "hourly count of missed searches",
        "hourly counts of missed searches",
        "from before",
    ),
    "misses": ("missed search", "missed searches", "last seen before"),
}


class PrunedPartWay(ReportedError):
    """Ctrl-C in `prune`: each batch is a transaction of its own, so the batches finished stay
    removed and the rest is still there (not `Interrupted`'s one write, whole or not begun); or
    Ctrl-C during `--vacuum`, after the whole prune."""

    exit_code = 130


def run_prune(args: argparse.Namespace) -> int:
    path = existing_database(args)
    if path is None:
        return 1
    if args.vacuum and isinstance(path, str):
        return print_error(
            "--vacuum is for a SQLite file: on PostgreSQL autovacuum makes the space of removed "
            "rows reusable (run VACUUM yourself to have it done now); nothing was removed"
        )
    # From the start of an hour: the counts are kept by the hour.
    now = datetime.now(UTC)
    before = (now - timedelta(days=args.older_than)).replace(minute=0, second=0, microsecond=0)
    cut_off = before.strftime("%Y-%m-%d %H:%M UTC")
    removed: dict[str, int] = {}  # so far, table by table: what a Ctrl-C leaves removed

    def told(progress: Progress, table: str, done: int) -> None:
        removed[table] = done
        progress.show(f"prune: {table}", done)

    async def prune(store: Store) -> dict[str, int]:
        if args.dry_run:
            return await store.old_rows(before)
        with Progress("prune", quiet=args.quiet) as progress:
            return await store.prune(before, told=partial(told, progress))

    def say(counts: Mapping[str, int]) -> None:
        verb = "would remove" if args.dry_run else "removed"
        for table, n in counts.items():
            one, many, when = _PRUNED_ROWS[table]
            print(f"{table}: {verb} {n:,} {one if n == 1 else many} {when} {cut_off}")

    # Stopped part-way (Ctrl-C, a database error), the batches committed stay removed: they
    # are listed as a finished prune lists them, and the one line after says the rest is not.
    part_way = "what is listed was removed, the rest is untouched (run it again)"

    async def vacuumed(path: Path) -> tuple[int, int] | StorageError:
        try:
            return await vacuum_database(path)
        except StorageError as exc:  # the prune is done: not a prune stopped part-way
            return exc

    async def prune_and_vacuum(
        path: Path,
    ) -> tuple[dict[str, int], tuple[int, int] | StorageError, bool]:
        # VACUUM waits for no one and rewrites the file: no bot may use it meanwhile. Its lock
        # is taken before anything is pruned, so a refusal leaves everything as it was.
        holder = command_holder("prune")
        async with one_bot_per_file(str(path), holder=holder, wait=0, command=True):
            counts = await with_store(path, prune)
            # VACUUM runs in a thread nothing stops: a Ctrl-C meanwhile waits for it, the lock
            # still held, and is said after what was done.
            vacuum = asyncio.ensure_future(vacuumed(path))
            try:
                return counts, await asyncio.shield(vacuum), False
            except asyncio.CancelledError:
                return counts, await vacuum, True

    def refused(running: str) -> int:
        return print_error(
            f"{path}: {what_runs(running)} runs on this file ({running}); --vacuum needs it "
            "stopped (prune without --vacuum runs beside a bot); nothing was removed"
        )

    # A dry run's vacuum: the file it would rewrite (said after the rows), refused as the run.
    dry_vacuum = path if args.vacuum and args.dry_run and isinstance(path, Path) else None
    if dry_vacuum is not None and (running := bot_running_on(str(dry_vacuum))):
        return refused(running)
    sizes: tuple[int, int] | StorageError | None = None
    interrupted = False
    try:
        if args.vacuum and not args.dry_run and isinstance(path, Path):
            counts, sizes, interrupted = asyncio.run(prune_and_vacuum(path))
        elif args.dry_run and not args.vacuum:  # a read, as `stats`'s: a snapshot through a
            # copy (a dry --vacuum opens the file itself: a vacuum there would be refused)
            counts = reading_store(path, prune)
        else:
            counts = on_store(path, prune)
    except ShardsTaken as exc:
        return refused(", ".join(exc.holders) or "another process")
    except Interrupted:
        if not any(removed.values()):
            raise
        say({table: n for table, n in removed.items() if n})
        raise PrunedPartWay(f"interrupted part-way: {part_way}") from None
    except StorageError as exc:
        if not any(removed.values()):
            return print_error(str(exc))
        say({table: n for table, n in removed.items() if n})
        return print_error(f"{exc}; stopped part-way: {part_way}")
    say(counts)
    print(
        "kept: aliases, server terms, suggestions and both audit logs"
        + (" (--dry-run: nothing was removed)" if args.dry_run else "")
    )
    if dry_vacuum is not None:
        print(
            f"vacuum: would then rewrite the file ({dry_vacuum.stat().st_size:,} bytes now) without "
            "the space of the rows removed and other unused pages; it needs room for a copy"
        )
    status = 0
    if isinstance(sizes, StorageError):
        status = print_error(f"pruned as listed, but the vacuum gave no space back: {sizes}")
    elif sizes is not None:
        print(f"vacuum: the file went from {sizes[0]:,} bytes to {sizes[1]:,}")
    if interrupted:
        raise PrunedPartWay(
            "interrupted during the vacuum, which was let end (it cannot stop half-way): the "
            "prune and the vacuum went as listed"
        )
    return status
