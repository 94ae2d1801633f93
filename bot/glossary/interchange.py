"""A server's terms in and out as files: any format the bundled data uses in, curated TOML out.

`parse_import(data, filename, bundled)` reads curated TOML, the topics JSON or the Markdown
glossary (told by content, else by extension) with the bundled data's own readers, then checks
every record with `server_terms`' rules: it returns the terms and every problem, each with its
entry and line where the format tells; applying all or nothing is the caller's. `export_toml`
writes curated TOML that `parse_import` reads back to the same terms.

Hostile files are refused before they cost much: by size before decoding, binary or invalid
UTF-8 before parsing, TOML key paths and JSON/TOML nesting too deep to parse quickly, and more
records than a server may hold before checking them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.glossary.formats.curated_toml import ImportedEntry, curated_entries
from bot.glossary.formats.markdown import HEADING_MARK, heading_text, parse_markdown
from bot.glossary.formats.raw import CONFLICT_MESSAGE, RawEntry, conflict_line
from bot.glossary.formats.topics_json import parse_topics_json
from bot.glossary.models import Glossary
from bot.glossary.problems import Problem, not_utf8_line
from bot.glossary.server_terms import (
    FIELD_LABELS,
    MAX_TERMS,
    MAX_TEXT_BYTES,
    NO_CATEGORY,
    Candidate,
    NameFraming,
    NameReading,
    ServerTerm,
    TermProblem,
    as_written,
    check_candidates,
    no_framing,
    past_it_already,
)
from bot.glossary.toml import TomlError, parse_toml
from bot.sizes import said_sizes

MAX_IMPORT_BYTES = 1024 * 1024  # the least an import takes, whatever the server's caps
# An export writes each byte of a term's text at most twice (quotes, backslashes and line breaks
# escaped; a list's two quotes and ", " per item within twice the ", " that `text_size` counts
# between its items) and adds each term's keys, quotes and brackets: a few hundred bytes.
EXPORT_BYTES_PER_TERM = 512


def import_cap(max_terms: int = MAX_TERMS, max_text_bytes: int = MAX_TEXT_BYTES) -> int:
    """The largest file an import takes: room for the export of a server at its caps, so that
    any server's `/term export` imports back (about 5 MiB at the default caps); at least 1 MiB."""
    return max(MAX_IMPORT_BYTES, 2 * max_text_bytes + EXPORT_BYTES_PER_TERM * max_terms)


# Structure costs the parser by the item, whatever the file's size (rtoml: 0.06 s for 100,000
# tables, keys or arrays; tomllib, before it, ten times that), and a long dotted key
# ([a.a.a...]) is quadratic. Curated TOML needs a few of each per entry: more than that is
# refused unparsed. An export writes up to 36 a term (14 keys, each a line, 4 of them lists, the
# table's header and a blank line), and a term's text may hold brackets and "=" (Markdown links,
# code), which are counted too: 50 a term lets any server's export back in.
MAX_KEY_PARTS = 8
TOML_ITEMS_PER_TERM = 50
TOPIC_KEYS_PER_TERM = 25  # a topic has 15 keys at most; the bot never writes this format
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')[ \t]*\.[ \t]*"""
# The space after a bracket is matched only after one: two runs of spaces side by side made a
# line of spaces quadratic to search (20,000 took 6 s, a 1 MiB file hours).
_KEY_PATH = re.compile(rf"^[ \t]*(?:\[{{1,2}}[ \t]*)?(?:{_KEY_PART})+", re.MULTILINE)
_TOML_ITEM = re.compile(r"[\[{=\n]")  # tables and arrays, inline tables, keys, lines
# A comment or blank line costs the parser next to nothing: not counted (the size cap bounds
# them), so a file of a few terms and many comment lines is read (product71).
_UNCOUNTED_LINE = re.compile(r"^[ \t\r]*(?:#[^\n]*)?\n", re.MULTILINE)
_ENTRIES_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*entries[ \t]*\]\]", re.MULTILINE)
# Where a TOML file could give its entries at all: `[[entries]]`, `entries = [...]` (quoted or
# not; a table or dotted key is read, to be refused as not an array).
_ENTRIES_KEY = re.compile(
    r"""^[ \t]*(?:\[{1,2}[ \t]*)?(?:entries|"entries"|'entries')[ \t]*[=.\]]""", re.MULTILINE
)
NO_ENTRIES = "no entries in the file."
# What gives an import the category of its entries without one (`--category` on the command
# line).
DISCORD_CATEGORY_OPTION = "the command's `category` option"
ImportFormat = Literal["curated-toml", "topics-json", "markdown"]
_BY_SUFFIX: dict[str, ImportFormat] = {
    "toml": "curated-toml",
    "json": "topics-json",
    "md": "markdown",
    "markdown": "markdown",
    "txt": "markdown",
}
# Record fields a server term has no place for: said, not silently dropped.
_NOT_KEPT = {"match_terms": "match terms", "match_exclusions": "not_in", "note": "note"}
_TERM_FIELDS = (
    "title",
    "definition",
    "category",
    "acronym",
    "aliases",
    "summary",
    "boundary",
    "importance",
    "plain",
    "keywords",
    "reference",
    "other_senses",
)


def parse_import(
    data: bytes,
    filename: str,
    bundled: Glossary,
    *,
    default_category: str | None = None,
    max_terms: int = MAX_TERMS,
    max_bytes: int = MAX_IMPORT_BYTES,
    replaced: Sequence[ServerTerm] = (),
    held: int = 0,
    read_as: NameReading = as_written,
    framing: NameFraming = no_framing,
    category_option: str = DISCORD_CATEGORY_OPTION,
) -> tuple[list[ServerTerm], list[TermProblem]]:
    """The file's terms and every problem found (errors and warnings). `replaced`: the
    server's terms now, which the file's replace. `read_as`: how search reads a name
    (`server_terms.NameReading`); `framing`: whether it reads one as no term (`NameFraming`).
    `category_option`: what gives the import its default category, named where an entry has
    none (`/term import`'s option, or the command line's `--category`).

    The terms are checked as a whole set against the bundled glossary, as the server's terms
    would be after the import replaced them: apply them only if no problem is an error. `default_category` is given to records without
    one (the Markdown glossary has no categories). `held`: how many terms the server has; one
    already past `max_terms` (the cap lowered) may import as many (its own export), no more.
    """
    if len(data) > max_bytes:
        size, most = said_sizes(len(data), max_bytes)
        return [], [_file_problem(f"the file is {size}; at most {most}.")]
    text, refusal = decode_text(data)
    if refusal:
        return [], [_file_problem(refusal)]
    conflict = conflict_line(text)
    if conflict is not None:
        return [], [TermProblem("file", CONFLICT_MESSAGE + ".", line=conflict)]
    fmt = detect_format(text, filename)
    if fmt is None:
        return [], [
            _file_problem(
                "not a glossary file: expected curated TOML ([[entries]]), the topics JSON, "
                f"or the Markdown glossary (headings ending in {HEADING_MARK})."
            )
        ]
    file_problems: list[Problem] = []
    room = _Room(max_terms, held)
    raws = _read(fmt, text, filename, room, file_problems)
    problems = [_from_glossary_problem(p) for p in file_problems]
    if not raws and not any(p.severity == "error" for p in problems):
        # Refused rather than read as "remove every term": an import replaces the server's terms.
        problems.append(_file_problem(NO_ENTRIES))
    too_many = room.refusal(len(raws))
    if too_many:
        problems.append(_file_problem(too_many))
        return [], problems
    candidates = []
    seen_ids: set[str] = set()
    for raw in raws:
        # A file's ids are its own; Markdown's and id-less entries' are made from titles (a
        # repeat is a name clash).
        if fmt != "markdown" and raw.id and raw.id in seen_ids:
            problems.append(
                TermProblem(
                    "id", f"a second entry with id {raw.id!r} in the file", raw.title, raw.line
                )
            )
            continue
        seen_ids.add(raw.id)
        candidates.append(_candidate(raw, fmt, problems))
    terms, term_problems = check_candidates(
        candidates,
        bundled,
        (),
        default_category=default_category,
        replaced=replaced,
        read_as=read_as,
        framing=framing,
    )
    if default_category is None:
        said = _no_category(fmt, category_option)
        term_problems = [
            replace(p, message=said) if p.message == NO_CATEGORY else p for p in term_problems
        ]
    return terms, problems + term_problems


def _no_category(fmt: ImportFormat, option: str) -> str:
    """An imported entry without a category: how its file or the import gives one (outsider76:
    "choose a category" alone named nothing a Markdown file can say, nor the option)."""
    if fmt == "markdown":
        return f"{NO_CATEGORY}: a Markdown glossary has none; give its entries one with {option}"
    written = '`category = "…"`' if fmt == "curated-toml" else '`"category": "…"`'
    return (
        f"{NO_CATEGORY}: write {written} in the entry, or give one to every entry without one "
        f"with {option}"
    )


def _file_problem(message: str) -> TermProblem:
    return TermProblem("file", message)


def decode_text(data: bytes) -> tuple[str, str | None]:
    """A glossary or alias file's bytes as text (a byte-order mark dropped, line ends made \\n),
    or ("", why it is not UTF-8 text, in words a moderator or operator can act on)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # a byte-order mark: UTF-16 (or 32)
        return "", "this text is UTF-16, not UTF-8: save the file as UTF-8 and import it again."
    if b"\x00" in data:
        return "", "this is a binary file, not a text glossary file."
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Most often a file saved as "ANSI" (Windows-1252) by Notepad or Excel: say where, and
        # how to save it, as for UTF-16 above.
        line = not_utf8_line(data, exc)
        return "", (
            f"not UTF-8 text (line {line:,} has a byte that is not UTF-8): save the file as "
            "UTF-8 and import it again."
        )
    return text.removeprefix("\ufeff").replace("\r\n", "\n"), None


def detect_format(text: str, filename: str) -> ImportFormat | None:
    """By content where it is unmistakable, else by the file name's extension."""
    head = text.lstrip()
    if head.startswith("{"):
        return "topics-json"
    if re.search(r"^[ \t]*\[\[[ \t]*entries[ \t]*\]\]", text, re.MULTILINE):
        return "curated-toml"
    if any(line.rstrip().endswith(HEADING_MARK) for line in text.splitlines()):
        return "markdown"
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return _BY_SUFFIX.get(suffix)


@dataclass(frozen=True, slots=True)
class _Room:
    """How many terms a file may bring: `cap`, or as many as the server `held` when it is past
    the cap already (the cap lowered): its own export imports back, with no term added."""

    cap: int
    held: int = 0

    @property
    def terms(self) -> int:
        return max(self.cap, self.held)

    def refusal(self, entries: int) -> str | None:
        """Why `entries` terms are too many, or None."""
        if entries <= self.terms:
            return None
        said = f"{entries:,} entries; a server can have at most {self.cap:,} terms."
        if self.held > self.cap:  # past the cap already (it was lowered): kept, not added to
            said += past_it_already(f"{self.held:,} terms")
        return said


def _read(
    fmt: ImportFormat, text: str, name: str, room: _Room, problems: list[Problem]
) -> list[RawEntry]:
    if fmt == "markdown":
        # Counted, not parsed: 400,000 headings take seconds.
        too_many = room.refusal(_markdown_entries(text))
        if too_many:
            problems.append(Problem("error", name, too_many))
            return []
        entries = parse_markdown(text, name, "import", problems)
        _say_title_heading(text, name, problems)
        return entries
    try:
        if fmt == "topics-json":
            refusal = _topics_refusal(text, room)
            if refusal:  # counted, not checked: 300,000 empty topics took a minute
                problems.append(Problem("error", name, refusal))
                return []
            return parse_topics_json(text, name, "import", problems)
        refusal = _toml_refusal(text, room)
        if refusal:
            problems.append(Problem("error", name, refusal))
            return []
        data = parse_toml(text)
    except RecursionError:  # the topics JSON's
        problems.append(Problem("error", name, "nested too deeply to read"))
        return []
    except TomlError as exc:
        problems.append(Problem("error", name, str(exc)))
        return []
    return curated_entries(data, text, name, "import", problems, ImportedEntry)


def _say_title_heading(text: str, name: str, problems: list[Problem]) -> None:
    """The Markdown glossary's first heading is the file's title, not a term: said, for a
    moderator's file that starts with a term would otherwise lose it without a word."""
    first = next((line for line in text.splitlines() if line.rstrip().endswith(HEADING_MARK)), "")
    if title := heading_text(first):
        problems.append(
            Problem(
                "warning",
                name,
                f"the first heading, “{title}”, is read as the file's title, not a term: "
                f"to import it as a term, put a title line (ending in {HEADING_MARK}) above it",
                line=text.splitlines().index(first) + 1,
            )
        )


def _markdown_entries(text: str) -> int:
    """How many terms the Markdown glossary's headings start: every heading but the document's
    title and single-letter sections (an upper bound by one at most, which parsing then
    checks)."""
    headings = (line.rstrip() for line in text.splitlines())
    titles = (h[: -len(HEADING_MARK)].strip() for h in headings if h.endswith(HEADING_MARK))
    return max(0, sum(1 for t in titles if len(t) != 1) - 1)


def _topics_refusal(text: str, room: _Room) -> str | None:
    """Why a topics JSON text is refused before its topics are checked one by one (each
    problem of each is listed): more topics than a server may hold, or far more keys than a
    glossary needs (as TOML's count). Nothing when it is no topics JSON: its reader says why."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    other = _bot_json(data)
    if other is None:
        other = _other_json(data)
    if other is not None:
        return other
    topics = data.get("topics") if isinstance(data, dict) else None
    if not isinstance(topics, list):
        return None
    too_many = room.refusal(len(topics))
    if too_many:
        return too_many
    keys = sum(len(topic) for topic in topics if isinstance(topic, dict))
    if keys > TOPIC_KEYS_PER_TERM * room.terms:
        return (
            f"{keys:,} keys in its topics: more than a glossary of {room.terms:,} terms needs; "
            "is this a glossary file?"
        )
    return None


def _bot_json(data: object) -> str | None:
    """What a JSON file the bot's own command line writes is, and what reads it, when it is
    given as a server's terms (its topics-JSON problems would only puzzle: "schemaVersion:
    missing required field")."""
    rows = data if isinstance(data, list) else []
    if rows and all(isinstance(row, dict) and {"alias", "entry_id"} <= row.keys() for row in rows):
        return (
            "this is a file of aliases (as `glossary-bot aliases export` writes them), not a "
            "glossary: add aliases with `/alias add`, or the operator with `glossary-bot "
            "aliases import`."
        )
    if isinstance(data, dict) and {"sources", "entries"} <= data.keys() and "topics" not in data:
        return (
            "this is a whole glossary as `glossary-bot export` writes it, not a server's terms: "
            "import the curated TOML that `/term export` (or `glossary-bot terms export`) "
            "writes, the topics JSON or the Markdown glossary."
        )
    return None


# The topics JSON's own top-level keys: an object with none of them is another program's file.
_TOPICS_KEYS = {"schemaVersion", "language", "categories", "topics"}


def _other_json(data: object) -> str | None:
    """A JSON file of another program (another bot's export: a list of {"term", "definition"},
    {"tags": […]}, a name-to-text map), said in one line with the formats the bot reads; its
    topics-JSON problems ("schemaVersion: missing required field", one per key) would only
    puzzle whoever moves a glossary in."""
    if isinstance(data, list):
        keys = list(dict.fromkeys(k for row in data if isinstance(row, dict) for k in row))
        what = "a list of objects" if keys else "a list"
    elif isinstance(data, dict) and not _TOPICS_KEYS & data.keys():
        keys, what = list(data), "an object"
    else:
        return None
    if keys:
        # On one line: a key's line break would start another, rendered (`# …` a heading).
        shown = ", ".join(f"“{' '.join(key.split())[:40]}”" for key in keys[:5]) + (
            ", …" if len(keys) > 5 else ""
        )
        what += f" with the key{'s' if len(keys) > 1 else ''} {shown}"
    return (
        f"this JSON ({what}) is not a glossary format the bot reads, perhaps another program's "
        "export: write the terms as curated TOML (an `[[entries]]` table with title, category "
        "and definition for each; `/term export` or `glossary-bot terms export` writes one to "
        "start from), or give the topics JSON or the Markdown glossary."
    )


def _toml_refusal(text: str, room: _Room) -> str | None:
    """Why a TOML text is refused before it is parsed (counted by linear scans)."""
    too_many = room.refusal(len(_ENTRIES_HEADER.findall(text)))
    if too_many:
        return too_many
    dots = [m.group().count(".") for m in _KEY_PATH.finditer(text)]
    if max(dots, default=0) >= MAX_KEY_PARTS:
        return f"a dotted key of more than {MAX_KEY_PARTS} parts"
    items = len(_TOML_ITEM.findall(_UNCOUNTED_LINE.sub("", text))) + sum(dots)
    if items > TOML_ITEMS_PER_TERM * room.terms:
        if _ENTRIES_KEY.search(text) is None:  # comments only, say: whatever its size, no term
            return NO_ENTRIES
        return (
            f"{items:,} tables, keys and lines: more than a glossary of {room.terms:,} terms "
            "needs; is this a glossary file?"
        )
    return None


def _from_glossary_problem(problem: Problem) -> TermProblem:
    """A reader's problem ("definition: missing required field") as the moderator's."""
    field, sep, rest = problem.message.partition(": ")
    if sep and field in FIELD_LABELS:
        return TermProblem(field, rest, problem.entry, problem.line, problem.severity)
    return TermProblem("file", problem.message, problem.entry, problem.line, problem.severity)


def _candidate(raw: RawEntry, fmt: ImportFormat, problems: list[TermProblem]) -> Candidate:
    for attribute, label in _NOT_KEPT.items():
        if getattr(raw, attribute):
            problems.append(
                TermProblem(
                    "file",
                    f"{label} is not kept: a server term has no place for it",
                    raw.title,
                    raw.line,
                    "warning",
                )
            )
    fields: dict[str, object] = {name: getattr(raw, name) for name in _TERM_FIELDS}
    return Candidate(
        fields=fields,
        related=[*raw.related, *raw.see_also],
        label=raw.title or raw.id,
        line=raw.line,
        # A Markdown heading's id is a slug of its title, and so is an id-less entry's: let the
        # term's own rules derive it.
        preferred_id=raw.id if fmt != "markdown" and raw.id else None,
    )


_TOML_ESCAPES = {
    **{code: f"\\u{code:04X}" for code in [*range(0x20), 0x7F]},
    ord("\b"): "\\b",
    ord("\t"): "\\t",
    ord("\n"): "\\n",
    ord("\f"): "\\f",
    ord("\r"): "\\r",
    ord('"'): '\\"',
    ord("\\"): "\\\\",
}


def _toml_string(text: str) -> str:
    return '"' + text.translate(_TOML_ESCAPES) + '"'


def left_out(
    terms: Sequence[ServerTerm], glossary: Container[str] | None
) -> dict[str, tuple[str, ...]]:
    """The related ids an export of `terms` leaves out, by term id: given the `glossary`
    served (its ids), those naming neither a term nor an entry of it (its maintainers removed
    or renamed the entry, and the card no longer shows it), since an import refuses a related
    term that names nothing."""
    if glossary is None:
        return {}
    own = {term.id for term in terms}
    gone = {t.id: tuple(r for r in t.related if r not in own and r not in glossary) for t in terms}
    return {term_id: ids for term_id, ids in gone.items() if ids}


def left_out_line(
    terms: Sequence[ServerTerm],
    glossary: Container[str] | None,
    name: Callable[[str], str] = str,
    shown: int = 5,
) -> str | None:
    """What an export leaves out (`left_out`), in one sentence for whoever asked for it: the
    file then imports back with those terms changed. `name` makes a title safe to show (ids are
    slugs)."""
    gone = left_out(terms, glossary)
    if not gone:
        return None
    pairs = [f"{name(t.title)}: {', '.join(gone[t.id])}" for t in terms if t.id in gone]
    listed = "; ".join(pairs[:shown]) + (
        f"; and {len(pairs) - shown:,} more" if len(pairs) > shown else ""
    )
    ids = sum(len(ids) for ids in gone.values())
    which = "that term" if len(gone) == 1 else f"those {len(gone):,} terms"
    return (
        f"left out {ids} related id{'' if ids == 1 else 's'} no longer in the glossary ({listed});"
        f" importing this file back changes {which}"
    )


def export_toml(terms: Sequence[ServerTerm], glossary: Container[str] | None = None) -> str:
    """The terms as curated TOML (the bundled data's format), which `parse_import` reads back
    to the same terms. Related terms are written as ids; those `left_out` (given the `glossary`
    served) are left out with a comment saying so."""
    out = [
        "# A server's glossary terms, exported by Glossary Bot: curated TOML, the format of the",
        "# bundled data. Edit and import with /term import (README: Server glossaries).",
    ]
    left = left_out(terms, glossary)
    for term in terms:
        out += ["", "[[entries]]"]
        fields = term.model_dump()
        if gone := left.get(term.id, ()):
            fields["related"] = tuple(r for r in term.related if r not in gone)
            out += [
                f"# related {_toml_string(r)} left out: no longer in the glossary" for r in gone
            ]
        for name, value in fields.items():
            if value is None or value == ():
                continue
            if isinstance(value, tuple):
                items = ", ".join(_toml_string(str(v)) for v in value)
                out.append(f"{name} = [{items}]")
            else:
                out.append(f"{name} = {_toml_string(str(value))}")
    return "\n".join(out) + "\n"


def export_bytes(terms: Sequence[ServerTerm], glossary: Container[str] | None = None) -> bytes:
    """`export_toml` as the attachment's bytes."""
    return export_toml(terms, glossary).encode("utf-8")
