"""Reading TOML: every glossary file in TOML (curated files, overlays, manifests, "asked as",
a server's import) is parsed here, by rtoml (Rust: a quarter of the instructions of tomli's
compiled wheel on the bundled data), with one wording of what is wrong and where.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rtoml import TomlParsingError, loads

from bot.glossary.problems import Problem, read_utf8, unreadable_folder

# rtoml's message ends "at line L column C"; shown as "(at line L, column C)". (Patterns used
# only on bad input are compiled then, not at every start.)
_WHERE = r"^(?P<what>.*?)\s+at line (?P<line>\d+) column (?P<column>\d+)$"
# Where rtoml guesses a type from the first letter of an unquoted word (`title = nope` is "invalid
# float, expected `nan`"), the plain reason reads better.
_GUESSED_FLOAT = r"^invalid float, expected `(nan|inf)`$"
# Quotes a word processor or a phone's keyboard puts for `"` and `'` ("smart quotes"): TOML
# reads none of them, and its message ("String values must be quoted") reads as nonsense to
# whoever sees quotes there.
_TYPOGRAPHIC_QUOTES = "\u201c\u201d\u201e\u201f\u2018\u2019\u201a\u201b\u00ab\u00bb\uff02\uff07"
# A key (bare, quoted, dotted) on the line rtoml says is a duplicate, named in its message (rtoml
# says only "duplicate key"): a `key =` line or a `[table]` header, as written.
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\\\n]*"|'[^'\n]*')"""
_KEY = rf"{_KEY_PART}(?:[ \t]*\.[ \t]*{_KEY_PART})*"
_KEYED_LINE = (
    rf"^[ \t]*(?:(?P<key>{_KEY})[ \t]*=|(?P<table>\[\[?[ \t]*(?P<named>{_KEY})[ \t]*\]\]?))"
)
_KEY_SHOWN = 80  # a longer key is left unnamed: the line and column find it


class TomlError(ValueError):
    """Text that is not TOML; the message is the whole reason, like "not valid TOML: Unclosed
    table, expected `]` (at line 3, column 9)" or "nested too deeply to read"."""


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML document `text` as a dict, or TomlError."""
    try:
        data: dict[str, Any] = loads(text)
    except TomlParsingError as exc:
        raise TomlError(_reason(str(exc), text)) from None
    return data


def folder_files(
    paths: Sequence[Path], folder: str, problems: list[Problem]
) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each `*.toml` in every data folder's `folder/` (data folders in order, files in name
    order) with what it holds; a file that cannot be read is an error naming it, and skipped."""
    for path in paths:
        if not (path / folder).is_dir():
            continue
        if (why := unreadable_folder(path / folder)) is not None:
            problems.append(Problem("error", str(path / folder), why))
            continue
        for file in sorted((path / folder).glob("*.toml")):
            text = read_utf8(file, problems)
            if text is None:
                continue
            try:
                data = parse_toml(text)
            except TomlError as exc:
                problems.append(Problem("error", str(file), f"cannot read the file: {exc}"))
                continue
            yield file, data


def line_of(file: Path, pattern: str) -> int | None:
    """The first line of `file` that `pattern` matches, stripped (read again: only to say where
    a problem is), or None."""
    matches = re.compile(pattern).match
    try:
        lines = file.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return next((n for n, text in enumerate(lines, 1) if matches(text.strip())), None)


def table_line(file: Path, entry_id: str) -> int | None:
    """The line of `entry_id`'s table header (`[id]`, `["id"]`) in `file`."""
    return line_of(file, r"\[\s*([\"']?)" + re.escape(entry_id) + r"\1\s*\]")


def _reason(message: str, text: str) -> str:
    where = re.match(_WHERE, message, re.DOTALL)
    what = where["what"] if where else message
    if "recursion depth" in what:  # an array in an array in an array...
        return "nested too deeply to read"
    if re.match(_GUESSED_FLOAT, what):
        what = "invalid value, expected a quoted string, a number, true or false"
    what = what[:1].upper() + what[1:]
    if where and what == "Duplicate key":
        what += _key_named(text, int(where["line"]), int(where["column"]))
    if where:
        what += f" (at line {where['line']}, column {where['column']})"
        what += _typographic_quote(what, text, int(where["line"]), int(where["column"]))
    return f"not valid TOML: {what}"


def _key_named(text: str, line: int, column: int) -> str:
    """The key written at `line` and `column` (1-based) as " `key`", a `[table]` header whole;
    "" where none is found there (an inline table's), or it would not show as written."""
    lines = text.split("\n")
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    found = re.match(_KEYED_LINE, row)
    if found is None:
        return ""
    group = "key" if found["key"] is not None else "named"
    if not found.start(group) <= column - 1 < found.end(group):
        return ""
    shown = found["key"] or found["table"]
    if "`" in shown or not shown.isprintable() or len(shown) > _KEY_SHOWN:
        return ""
    return f" `{shown}`"


def _typographic_quote(what: str, text: str, line: int, column: int) -> str:
    """Where the failing line holds a typographic quote at the error (or the error is about a
    string), that quote named: the likeliest cause, which rtoml's words do not name."""
    lines = text.split("\n")
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    at = row[column - 1 : column]
    about_strings = "quote" in what.lower() or "string" in what.lower()
    found = at if at and at in _TYPOGRAPHIC_QUOTES else None
    if found is None and about_strings:
        found = next(_quotes_outside_strings(row), None)
    if found is None:
        return ""
    return (
        f": {found} is a typographic quote (a word processor's smart quotes): TOML strings take"
        " straight quotes, \" or '"
    )


def _quotes_outside_strings(row: str) -> Iterator[str]:
    """The typographic quotes of a line that stand outside its straight-quoted strings (and
    before a comment): inside one they are legal text (`"He said “hi”` only lacks its end)."""
    closing: str | None = None  # the quote that ends the string we are in
    escaped = False
    for ch in row:
        if closing is not None:
            if escaped:
                escaped = False
            elif ch == "\\" and closing == '"':
                escaped = True
            elif ch == closing:
                closing = None
        elif ch in "\"'":
            closing = ch
        elif ch == "#":
            return
        elif ch in _TYPOGRAPHIC_QUOTES:
            yield ch
