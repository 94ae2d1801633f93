"""Problems found in glossary data, each naming its file and entry so a maintainer can fix it."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from bot.errors import ReportedError
from bot.glossary.letters import fit
from bot.glossary.models import Frozen
from bot.glossary.records import RecordError, field_keys, parse_fields
from bot.reach import unreachable


class Problem(Frozen):
    # `names`: of a reference that "names no entry" (a kind, an asked-as table, a related id, a
    # "See X."), the id or name it gives: read when a file that could not be read may hold it
    __slots__ = ("severity", "file", "message", "entry", "line", "names")  # noqa: RUF023
    severity: Literal["error", "warning"]
    file: str
    message: str
    entry: str | None
    line: int | None
    names: str | None

    def __init__(
        self,
        severity: Literal["error", "warning"],
        file: str,
        message: str,
        entry: str | None = None,
        line: int | None = None,
        names: str | None = None,
    ) -> None:
        self.init_fields(severity, file, message, entry, line, names)

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        what = f" [{fit(self.entry, VALUE_SHOWN)}]" if self.entry else ""
        return f"{where}{what}: {self.severity}: {_values_cut(self.message)}"


def unknown_ids(
    files: Mapping[str, Path], known: Collection[str], line: Callable[[Path, str], int | None]
) -> list[Problem]:
    """An error for each id a data file keys (`files`: id -> the file it was first met in) that
    names no entry among `known`, at the file and `line` of its key (asked-as, other senses,
    kinds)."""
    return [
        Problem(
            "error",
            str(file),
            f"names no entry: {entry_id!r}",
            entry_id,
            line(file, entry_id),
            names=entry_id,
        )
        for entry_id, file in files.items()
        if entry_id not in known
    ]


# How much of an id, title, key or name a problem quotes: as much as the bot repeats of a
# user's words. A 100,000-character id quoted whole made a 100 KB log line (a refused reload's
# ERROR) and as long a line of `check`; the file and line say where the rest is.
VALUE_SHOWN = 100
# A quoted value ('…' or "…" as repr writes them, escapes included), or a run without spaces.
_VALUE = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\S+""")


def _values_cut(message: str) -> str:
    def cut(value: re.Match[str]) -> str:
        text = value[0]
        if len(text) <= VALUE_SHOWN:
            return text
        if text[0] in "'\"" and text[-1] == text[0] and len(text) > 1:
            return text[0] + fit(text[1:-1], VALUE_SHOWN) + text[0]
        word = text.rstrip(":;,.)")  # the message's own punctuation kept
        return fit(word, VALUE_SHOWN) + text[len(word) :]

    return _VALUE.sub(cut, message)


class Placed(Protocol):
    """A problem that may name its line: a glossary's (`Problem`) or a server term's."""

    @property
    def line(self) -> int | None: ...


P = TypeVar("P", bound=Placed)


def _no_kind(problem: object) -> str:
    return ""


def reading_order(
    problems: Iterable[P],
    *,
    file: Callable[[P], str] = _no_kind,
    kind: Callable[[P], str] = _no_kind,
) -> list[P]:
    """`problems` as their files read, top-down: each `file`'s together (in the order each first
    comes), those of the whole file (no line) first, by `kind`, then by line; alike, in the
    order found. The one order of an import's (`/term import`, `terms import`) and `check`'s
    lists: found, a file's readers' problems came before the term checks' (lines 19, 3, 11)."""
    listed = list(problems)
    files = {name: at for at, name in enumerate(dict.fromkeys(map(file, listed)))}

    def place(problem: P) -> tuple[int, int, str]:
        line = problem.line or 0
        return files[file(problem)], line, "" if line else kind(problem)

    return sorted(listed, key=place)


def not_utf8_line(data: bytes, exc: UnicodeDecodeError) -> int:
    """The line of the first byte of `data` that is not UTF-8 (most often a file saved as
    "ANSI", Windows-1252, by Notepad or Excel)."""
    return data.count(b"\n", 0, exc.start) + 1


def read_utf8(path: Path, problems: list[Problem]) -> str | None:
    """A data file's text, or None with the problem reported, named as the path was given: a
    file that is not UTF-8 names its line and how to mend it, not a byte offset."""
    try:
        data = file_bytes(path)
        # a Windows editor's byte-order mark dropped, as an import drops it (`decode_text`)
        return data.decode("utf-8").removeprefix("\ufeff")
    except NotAFile as exc:
        problems.append(Problem("error", str(path), str(exc)))
    except OSError as exc:
        problems.append(Problem("error", str(path), f"cannot read the file: {exc}"))
    except UnicodeDecodeError as exc:
        message = "not UTF-8 text (a byte on this line is not UTF-8): save the file as UTF-8"
        problems.append(Problem("error", str(path), message, line=not_utf8_line(data, exc)))
    return None


class NotAFile(OSError):
    """A pipe, device or socket where a data file was expected."""


def file_bytes(path: Path) -> bytes:
    """A data file's bytes. A pipe or device named like a data file (`mkfifo data/x.toml`) is
    refused, never read: its read waits for a writer, and `check` or the bot's start hung."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a pipe does not wait either
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):  # as reading it says
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise NotAFile("not a file or folder (a pipe or a device): not read")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as file:
        return file.read()


def unreadable_folder(path: Path) -> str | None:
    """Why this user cannot read what `path` names (a folder on its way that cannot be
    searched, a folder that cannot be listed), or None: Path.is_dir() raises on the first (it
    was a traceback), and glob() skips the second without a word."""
    if why := unreachable(path):
        return f"cannot reach it: {why}"
    try:
        mode = path.stat().st_mode
    except OSError:
        return None  # not there: the readers say so
    if stat.S_ISDIR(mode) and not os.access(path, os.R_OK | os.X_OK):
        return "cannot read the folder: Permission denied"
    return None


def did_you_mean(word: str, among: Iterable[str]) -> str:
    """ " (did you mean 'x'?)" for the one of `among` a hand edit's slip of `word` most likely
    meant (`definiton`, `kv-cach`), else "" (outsider76)."""
    import difflib  # only for a problem: `check` of good data never loads it

    meant = difflib.get_close_matches(word, sorted(among), n=1, cutoff=0.8)
    return f" (did you mean {meant[0]!r}?)" if meant else ""


class GlossaryError(ReportedError):
    """The data could not be loaded; `problems` says what and where."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        errors = [p for p in problems if p.severity == "error"]
        if len(errors) == 1:
            super().__init__(f"1 problem in the glossary data: {errors[0]}")
            return
        shown = "\n".join(str(p) for p in errors[:20])
        more = f"\n... and {len(errors) - 20:,} more" if len(errors) > 20 else ""
        super().__init__(f"{len(errors):,} problem(s) in the glossary data:\n{shown}{more}")


def validate_fields(
    kind: type[Any],
    item: object,
    report: Callable[[str], None],
    rest: Callable[[dict[str, Any], frozenset[str]], None] | None = None,
) -> dict[str, Any] | None:
    """One record of a data file as its values by field name (`parse_fields`), or None; every
    problem found goes to `report`.

    Unknown keys are reported and set aside rather than failing the record, so the checks on its
    content still run and one `check` lists all of an entry's problems. A record refused is
    given to `rest` (its known keys, and those refused) to check what else it can.
    """
    known = field_keys(kind)
    if isinstance(item, dict) and not known.issuperset(item):
        for key in item:
            if key not in known:
                report(f"{key}: unknown key{did_you_mean(key, known)}")
        item = {key: value for key, value in item.items() if key in known}
    try:
        return parse_fields(kind, item)
    except RecordError as exc:
        for message in exc.messages:
            report(message)
        if rest is not None and isinstance(item, dict):
            rest(item, exc.fields)
        return None


def lines_at(text: str, offsets: Iterable[int]) -> Iterator[int]:
    """The 1-based line (as TOML and JSON count them: "\\n" ends a line) of each of `offsets`,
    ascending, in `text`: each newline is counted once."""
    line, counted_to = 1, 0
    for offset in offsets:
        line += text.count("\n", counted_to, offset)
        counted_to = offset
        yield line


class LineFinder:
    """1-based line numbers (as TOML counts them: "\\n" ends a line) of the lines starting with
    a match of `pattern`, per key and in order, found in one pass of the regex engine over a
    file.

    `pattern` has one group, the key: e.g. the id in `id = "kv-cache"`; it must not match past
    the end of a line (`[ \\t]`, not `\\s`).
    """

    def __init__(self, text: str, pattern: str) -> None:
        # Each match begins with the newline before its line (the text gets one in front): the
        # engine skips from newline to newline, where `^` in MULTILINE mode would try every
        # character, and a match per line called from Python would cost twice as much.
        # A match at `start` in the text with its newline in front is the line at `start` in
        # the text itself.
        self._lines: dict[str, list[int]] = {}
        matches = list(re.finditer("\n" + pattern, "\n" + text))
        for match, line in zip(matches, lines_at(text, (m.start() for m in matches)), strict=True):
            self._lines.setdefault(match.group(1), []).append(line)

    def count(self, key: str) -> int:
        """How many lines match with this key."""
        return len(self._lines.get(key, ()))

    def __call__(self, key: object, occurrence: int = 0) -> int | None:
        """The line of the key's `occurrence`th match (0: the first): a second entry with the
        same id is reported at its own line."""
        lines = self._lines.get(key) if isinstance(key, str) else None
        if not lines:
            return None
        return lines[min(occurrence, len(lines) - 1)]


IMPORTED = "import"  # the `source` the readers are given for a server's imported file
_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def entry_label(item: object, position: int, place: str, copy: int, source: str) -> str:
    """What a file's problem lines call one of its entries (`item`, the `position`th, a
    `place`: "entry" or "topic"), one rule for a format's every line: an import's (a server's
    file, read by a moderator, for whom a term is its title, `/term edit`'s and the card's) by
    its title, else its id; `check`'s (the data's maintainers, whose references are ids) by
    its id, else its title; an entry with neither by its place ("entry #3"). An entry whose id
    an earlier one has (`copy`: how many had it) is told apart from it: "Zorb (the second entry
    with id zorb)", so a copy's problems do not read as the first's listed twice."""
    fields = item if isinstance(item, dict) else {}
    given = [fields.get(key) for key in ("title", "id")]
    if source != IMPORTED:
        given.reverse()
    label = next((v for v in given if isinstance(v, str) and v.strip()), f"{place} #{position}")
    entry_id = fields.get("id")
    if copy and isinstance(entry_id, str):
        nth = _ORDINALS[copy] if copy < len(_ORDINALS) else f"{copy + 1}th"
        if label == entry_id:
            return f"{label} (the {nth} entry with this id)"
        return f"{label} (the {nth} entry with id {entry_id})"
    return label
