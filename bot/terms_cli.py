"""`glossary-bot terms export|import|log --guild ID` (declared in `bot.cli`): a server's own terms
as files, and their audit log, for operators, with the rules of `/term export` and `/term import` (the same check, caps
and all-or-nothing write; the import is audited as the operator's). The database and caps come
from the one `Settings` (`--db`, else `DATABASE_URL` or `DATABASE_PATH`; `MAX_SERVER_TERMS`,
`MAX_SERVER_TERM_BYTES`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from pathlib import Path

from bot.dburl import without_password
from bot.errors import print_error
from bot.glossary import Glossary, load_glossary
from bot.glossary.interchange import export_bytes, import_cap, left_out_line
from bot.glossary.keys import compact
from bot.glossary.markup import for_terminal
from bot.glossary.problems import GlossaryError
from bot.search.query import read_alone
from bot.settings import Settings
from bot.storage import OPERATOR_ACTOR, Migrate, StorageError, Store
from bot.storage.cli import (
    database_location,
    existing_database,
    on_store,
    over_the_database,
    reading_store,
    write_whole,
)
from bot.term_import import (
    REPORT_LISTED,
    at_most,
    describe,
    import_terms,
    server_import_cap,
    too_big,
)
from bot.term_log import entry_json, log_entry, plain_lines
from bot.term_storage import accept_as_operator, read_terms, rename_notes, untold_line

_SERVERS_NAMED = 10  # in the line for an export of a server with no terms


def run_export(args: argparse.Namespace) -> int:
    settings: Settings = args.settings
    try:  # what the bot serves, to leave out related ids it no longer has
        glossary: Glossary | None = load_glossary(settings.glossary_path_list)
    except GlossaryError:  # the data files are broken: export the terms as stored
        glossary = None

    empty: list[str] = []  # said once the file is written (a write that fails says only that)

    async def read(store: Store) -> bytes:
        terms = await read_terms(store, args.guild)
        if not terms:  # a wrong id (a channel's, a digit off) would otherwise pass unseen
            empty.append(await _none_held(store, args.guild, location))
        for note in rename_notes(args.guild, terms, glossary) if glossary else []:
            print(note, file=sys.stderr)
        if left := left_out_line(terms, glossary):
            print(f"terms export: {left}", file=sys.stderr)
        if aliases := await store.aliases(args.guild):  # the server's, not in a terms file
            n = len(aliases)
            them, each = ("it", "its") if n == 1 else ("them", "each")
            print(
                f"terms export: the file does not hold server {args.guild}'s {n:,} "
                f"alias{'es' if n != 1 else ''}: `glossary-bot aliases export --guild "
                f"{args.guild}` writes {them} (`aliases import` reads {them} back, with {each} "
                "guild_id set to the other server's)",
                file=sys.stderr,
            )
        return export_bytes(terms, glossary)

    location = existing_database(args)
    if location is None:
        return 1
    if args.output and (said := over_the_database(args.output, location, "the export")):
        return print_error(said)
    try:
        # A read: an older database is left to the bot to upgrade (an older bot may serve it).
        data = reading_store(location, read)
    except StorageError as exc:
        return print_error(str(exc))
    if args.output:
        try:
            write_whole(args.output, data)
        except OSError as exc:
            return print_error(f"cannot write {args.output}: {exc.strerror or exc}")
    else:
        sys.stdout.buffer.write(data)
    for said in empty:
        print(f"terms export: {said}", file=sys.stderr)
    return 0


async def _none_held(store: Store, guild: int, location: str | Path | None) -> str:
    """That `guild` has no terms in the database at `location`, naming the servers with terms
    or aliases there (the one query that lists servers)."""
    shown = without_password(location) if isinstance(location, str) else location
    held = await store.term_scopes()
    others = ", ".join(str(scope) for scope in held[:_SERVERS_NAMED])
    if len(held) > _SERVERS_NAMED:
        others += f" and {len(held) - _SERVERS_NAMED:,} more"
    return (
        f"server {guild} has no terms in {shown}: the file holds none "
        f"({'servers with terms or aliases there: ' + others if held else 'nor has any server'})"
    )


def run_import(args: argparse.Namespace) -> int:
    settings: Settings = args.settings
    # A dry run writes nothing: it neither makes a database where there is none nor upgrades
    # an older one, which an older bot may still serve. Where there is none yet (a glossary
    # begun before the bot's first start) the file is checked as into the new database the
    # import makes, in a temporary folder: a dry run says so (the path named: a misspelt --db
    # shows), and a refused import leaves no database behind.
    location: str | Path | None = database_location(args)
    new_database = (
        isinstance(location, Path) and not location.exists() and not location.is_symlink()
    )
    if args.dry_run and not new_database:
        location = existing_database(args)
    if location is None:
        return 1
    path: Path = args.file
    caps = (settings.max_server_terms, settings.max_server_term_bytes)
    cap = import_cap(*caps)
    stdin = str(path) == "-"  # as `aliases import -`: the file piped in
    named = "standard input" if stdin else str(path)

    def server_cap() -> int:
        """Past the caps' limit: a server past a lowered cap takes its own export (a read)."""
        if isinstance(location, Path) and not location.is_file():
            return cap  # no database yet: no terms
        return reading_store(location, lambda store: server_import_cap(store, args.guild, caps))

    try:
        refusal = None if stdin else too_big(str(path), path.stat().st_size, cap)
        if refusal:
            cap = server_cap()
            refusal = too_big(str(path), path.stat().st_size, cap)
        if refusal:
            return print_error(refusal)
        with contextlib.nullcontext(sys.stdin.buffer) if stdin else path.open("rb") as file:
            data = file.read(cap + 1)
            if len(data) > cap == import_cap(*caps):  # unmeasured (piped) and past the caps'
                cap = server_cap()
                data += file.read(cap + 1 - len(data))
        if len(data) > cap:  # a device or a pipe, whose size stat does not know
            return print_error(f"{named} is too big: {at_most(cap)}")
    except OSError as exc:
        return print_error(f"cannot read {named}: {exc.strerror or exc}")
    except StorageError as exc:
        return print_error(str(exc))
    glossary = load_glossary(settings.glossary_path_list)

    async def write(store: Store, dry_run: bool = args.dry_run) -> str:
        outcome = await import_terms(
            store,
            args.guild,
            data,
            path.name,
            glossary,
            actor_id=OPERATOR_ACTOR,
            caps=caps,
            dry_run=dry_run,
            default_category=args.category,
            category_option="`--category C`",
        )
        text = for_terminal(describe(outcome, limit=REPORT_LISTED, one_a_line=True))
        if outcome.diff is None:
            raise _Refused(text)
        # Members who suggested a name an imported term has were waiting for it: accept them.
        names = {compact(name): t.id for t in outcome.written for name in t.names}
        accepted, stopped, named = await accept_as_operator(
            store, args.guild, names, read_as=read_alone
        )
        return text + untold_line(accepted, stopped=stopped, names=len(named))

    try:
        if new_database:
            with tempfile.TemporaryDirectory() as folder:
                said = on_store(
                    Path(folder, "new.db"),
                    lambda store: write(store, dry_run=True),
                    migrate=Migrate.CREATE_ONLY,
                )
        if new_database and args.dry_run:
            # First, where it is seen: a misspelt --db is read here, not as the server's terms.
            print(f"There is no database at {location} yet: the import will make it.\n{said}")
        elif args.dry_run:  # a read, as `terms export`'s: a snapshot through a copy
            print(reading_store(location, write))
        else:  # a new database is made; an older one is left to the bot (an older bot may serve it)
            print(on_store(location, write, migrate=Migrate.CREATE_ONLY))
    except _Refused as refused:
        print(str(refused), file=sys.stderr)
        return 1
    except StorageError as exc:
        return print_error(str(exc))
    return 0


class _Refused(Exception):
    pass


def run_log(args: argparse.Namespace) -> int:
    location = existing_database(args)
    if location is None:
        return 1
    try:
        records = reading_store(
            location, lambda store: store.term_audit_log(args.guild, args.limit)
        )
    except StorageError as exc:
        return print_error(str(exc))
    if args.json:
        print(json.dumps([entry_json(r) for r in records], indent=2, ensure_ascii=False))
        return 0
    if not records:
        print(f"No term changes in server {args.guild}.")
    for record in records:
        entry = log_entry(record)
        member = None if entry.member_id is None else f"user {entry.member_id}"
        actor = "the bot" if entry.by_bot else _actor(entry.actor_id)
        print("\n".join(plain_lines(entry, actor, member)))
    return 0


def _actor(actor_id: int) -> str:
    return "an operator (command line)" if actor_id == OPERATOR_ACTOR else f"user {actor_id}"
