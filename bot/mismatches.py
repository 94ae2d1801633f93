"""What a change of the glossary's data leaves at odds with a server's own terms and aliases: one
home for the bot's warnings as it reads a server (`ServerCache`) and for `glossary-bot check --db`,
which reports them before the restart. No discord, no database here.

Five kinds: aliases of entries the glossary no longer has (they open nothing); aliases that an
entry's title now is (search reads a title first: they open that entry); terms whose id an entry
of another concept now has (the bot renames them as it reads the server); terms that an entry's
new name made that entry's wording, although written as terms of their own (one card for two
concepts); terms named in the other number of an entry's name or of another term's, or named
so that search reads them as one (outsider71: "Zorb ★" beside "Zorb"), stored before such names
were refused (review29, left31): shown as stored, but their next edit is refused until one is
renamed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.glossary import Entry, Glossary
from bot.glossary.keys import compact, normalize, plural_variants
from bot.glossary.problems import Problem
from bot.glossary.server_terms import (
    NameReading,
    ServerTerm,
    bundled_names,
    entry_taking_id,
    free_id,
    overlay_target,
)
from bot.search.local import LocalGlossary
from bot.search.names import NameKind
from bot.search.query import read_alone


@dataclass(frozen=True)
class ReadAs:
    """The name another entry or term has that search reads a term's name as (its other
    number, or the name once search leaves out what is around it), and whose it is: a bundled
    entry's title, or another of the server's terms'."""

    name: str
    owner: str
    bundled: bool

    def said(self) -> str:
        whose = "the glossary's" if self.bundled else "the server's"
        return f"{whose} “{self.owner}”"


@dataclass(frozen=True)
class Found:
    gone: dict[str, str] = field(default_factory=dict)  # alias key -> the entry id it names
    titled: dict[str, tuple[Entry, str]] = field(default_factory=dict)  # alias -> taker, own
    taken: dict[ServerTerm, Entry] = field(default_factory=dict)  # term -> entry with its id
    worded: dict[ServerTerm, Entry] = field(default_factory=dict)  # term -> entry it words
    numbered: dict[ServerTerm, ReadAs] = field(default_factory=dict)  # term -> name it reads as

    def __bool__(self) -> bool:
        return bool(self.gone or self.titled or self.taken or self.worded or self.numbered)


def find_mismatches(
    local: LocalGlossary, glossary: Glossary, readings: NameReadings | None = None
) -> Found:
    """What the server's glossary `local` (its terms and aliases compiled against `glossary`,
    the bundled data) has at odds with `glossary`. `readings`: the server's names as search
    read them at its last check (`NameReadings`), kept for its next; none, all are read."""
    return Found(
        gone={a: e for a, e in local.aliases.source.items() if local.entry(e) is None},
        titled={
            alias: (taker, getattr(local.entry(entry_id), "title", entry_id))
            for alias, entry_id in local.aliases.source.items()
            if (taker := title_taking(local, alias, entry_id)) is not None
        },
        taken={
            term: entry
            for term in local.terms
            if (entry := entry_taking_id(term, glossary)) is not None
        },
        worded={term: entry for term in local.terms if (entry := worded_by_name(term, glossary))},
        numbered=other_numbers(local.terms, glossary, readings or NameReadings(read_alone)),
    )


class NameReadings:
    """How search reads each of a server's names alone (`read_as`: "the Zorb ★" -> "zorb"),
    kept from one check of its names (`other_numbers`) to the next, so that a server's change
    re-reads only the names it changed: `read_alone` is some 20 µs a name, three times the
    rest of the check on a server of 160,000 names (bench/readings_bench.py). Keyed by the name
    as written, so a reading kept is the one the name would get; only the last check's names
    are kept (one server's names at most), the reading only where it is not the name's key."""

    def __init__(self, read_as: NameReading = read_alone) -> None:
        self.read_as = read_as
        self.kept: dict[str, str] = {}  # a name -> its reading's key, "" when that is its own

    def keys(self, name: str, now: dict[str, str]) -> tuple[str, str]:
        """The name's key and the key search reads it as (the kept reading or a new one),
        noted in `now`, the names of this check (`keep` then keeps them)."""
        key = compact(name)
        core = now.get(name)
        if core is None:
            core = self.kept.get(name)
        if core is None:
            core = compact(self.read_as(name))
            core = "" if core == key else core
        now[name] = core
        return key, core or key

    def keep(self, now: dict[str, str]) -> None:
        """This check's readings, for the next (one assignment: two checks at once of the
        server each keep a whole set, and any reading kept is its name's)."""
        self.kept = now


def other_numbers(
    terms: Sequence[ServerTerm], glossary: Glossary, read_as: NameReading | NameReadings
) -> dict[ServerTerm, ReadAs]:
    """The terms that `check_candidates` would now refuse for a name in the other number of a
    bundled entry's name (not the entry the term words) or of another term's name, by the same
    rule (`plural_variants`), or for a name search reads (`read_as`) as such a name ("Zorb ★"
    beside a term "Zorb"). Of two terms, the one whose id sorts later is named, as though they
    were added in that order, except that the one named for a reading is always the one whose
    name is read as the other's: one line a pair. `read_as` may be the server's readings kept
    from its last check (`NameReadings`), which this check's then replace."""
    if not terms:  # nothing to find: the names' cache is not to keep `glossary` alive for it
        return {}
    reader = read_as if isinstance(read_as, NameReadings) else NameReadings(read_as)
    now: dict[str, str] = {}
    bundled = bundled_names(glossary)
    held: dict[str, tuple[ServerTerm, str]] = {}  # name key -> (its term, the name as written)
    read: dict[str, tuple[ServerTerm, str]] = {}  # the key a name is read as -> as `held`
    found: dict[ServerTerm, ReadAs] = {}
    for term in sorted(terms, key=lambda t: t.id):
        target = overlay_target(term, glossary)
        # each name as a key, and as search reads it ("Zorb ★" -> "zorb"), read once
        keyed = [(name, *reader.keys(name, now)) for name in term.names]
        for name, key, core in keyed:
            readings = plural_variants(key) + ([core] if core and core != key else [])
            if key not in bundled:
                for variant in readings:
                    owner = bundled.get(variant)
                    if owner is not None and (target is None or owner.id != target.id):
                        its = next(n for n in owner.names if compact(n) == variant)
                        found.setdefault(term, ReadAs(its, owner.title, bundled=True))
            for variant in readings:
                other = held.get(variant)
                if other is not None and other[0].id != term.id:
                    found.setdefault(term, ReadAs(other[1], other[0].title, bundled=False))
            earlier = read.get(key)  # an earlier term's name search reads as this one
            if earlier is not None and earlier[0].id != term.id:
                found.setdefault(earlier[0], ReadAs(name, term.title, bundled=False))
        for name, key, core in keyed:
            held.setdefault(key, (term, name))
            if core and core != key:
                read.setdefault(core, (term, name))
    reader.keep(now)
    return found


def title_taking(local: LocalGlossary, alias: str, entry_id: str) -> Entry | None:
    """The entry whose title a server's alias now is, when that is not the alias's own card:
    search reads a glossary title before a server's alias, so a maintainers' new entry titled
    as the alias takes it (the alias then opens that entry)."""
    card = local.card_id(entry_id)
    for hit in local.index.names.lookup(compact(normalize(alias))):
        if hit.kind is NameKind.TITLE and local.index.entries[hit.entry].id != card:
            return local.index.entries[hit.entry]
    return None


def worded_by_name(term: ServerTerm, glossary: Glossary) -> Entry | None:
    """The bundled entry `term` is the server's wording of by a shared name, when the term was
    not written as that wording (its id is not the entry's: a term written naming a bundled
    entry gets its id), most often since the maintainers gave the entry the term's name."""
    target = overlay_target(term, glossary)
    return target if target is not None and target.id != term.id else None


def shared_name(term: ServerTerm, entry: Entry) -> str:
    """The entry's name that `term` has too."""
    names = {compact(n) for n in term.names}
    return next((m for m in entry.names if compact(m) in names), term.title)


def mismatch_problems(
    scope: int, found: Found, glossary: Glossary, stored_ids: set[str]
) -> list[Problem]:
    """`check --db`'s warnings for one server (`scope`): one per alias or term at odds, in the
    words the bot logs them in. `stored_ids`, every id of the server's terms (those that do not
    parse too), keeps a rename's new id free of them, as the bot's."""
    where = f"server {scope}"
    problems = [
        Problem(
            "warning",
            where,
            f"alias “{alias}” is of {entry_id!r}, an entry no longer in the glossary: it opens "
            "nothing until the server's moderators remove it (/alias list marks it)",
        )
        for alias, entry_id in sorted(found.gone.items())
    ]
    problems += [
        Problem(
            "warning",
            where,
            f"alias “{alias}” of “{own}” is now the title of the glossary's “{taker.title}”: it "
            "opens that entry until the server's moderators remove it (/alias list marks it)",
        )
        for alias, (taker, own) in sorted(found.titled.items())
    ]
    ids = set(stored_ids)
    for term, entry in sorted(found.taken.items(), key=lambda item: item[0].id):
        new_id = free_id(term, glossary, ids)
        ids.add(new_id)
        problems.append(
            Problem(
                "warning",
                where,
                f"term “{term.title}” has the id {term.id!r}, which the glossary's "
                f"“{entry.title}” now has: the bot renames it {new_id!r} (with its aliases, "
                "related ids and lookups) when it next reads the server with this glossary",
            )
        )
    for term, entry in sorted(found.worded.items(), key=lambda item: item[0].id):
        problems.append(
            Problem(
                "warning",
                where,
                f"term “{term.title}” (id {term.id!r}) is shown as the glossary's "
                f"“{entry.title}”, whose name “{shared_name(term, entry)}” it has: in that "
                "server the entry's card leads with the term's text, and the entry's aliases "
                "and lookups are the term's; if they are different concepts, rename the term or "
                "give the entry other names",
            )
        )
    for term, read_as in sorted(found.numbered.items(), key=lambda item: item[0].id):
        whose = "the glossary's name for" if read_as.bundled else "a name of the server's term"
        which = "it until it is" if read_as.bundled else "either until one is"
        problems.append(
            Problem(
                "warning",
                where,
                f"term “{term.title}” (id {term.id!r}) is read by search as “{read_as.name}”, "
                f"{whose} “{read_as.owner}”: stored before such names were refused, it is shown "
                f"as stored, but /term edit refuses to save {which} renamed",
            )
        )
    return problems
