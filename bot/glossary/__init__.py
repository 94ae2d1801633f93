"""The glossary: loading, validating and merging the data files into immutable entries.

The names below are imported on first use, so a light import (`bot.glossary.keys` from search,
the command line's parser) does not read in every reader and check.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.collector import collector_paused

if TYPE_CHECKING:
    from bot.glossary.models import CATEGORIES, Entry, Glossary, SourceInfo, SourceNote, SourceText
    from bot.glossary.problems import GlossaryError, Problem
    from bot.glossary.sources import SourceData

_LAZY = {
    "CATEGORIES": "bot.glossary.models",
    "Entry": "bot.glossary.models",
    "Glossary": "bot.glossary.models",
    "SourceInfo": "bot.glossary.models",
    "SourceNote": "bot.glossary.models",
    "SourceText": "bot.glossary.models",
    "GlossaryError": "bot.glossary.problems",
    "Problem": "bot.glossary.problems",
}

__all__ = [
    "CATEGORIES",
    "Entry",
    "Glossary",
    "GlossaryError",
    "Problem",
    "SourceInfo",
    "SourceNote",
    "SourceText",
    "bundled_data_dir",
    "inspect_glossary",
    "load_glossary",
    "load_glossary_warned",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def bundled_data_dir() -> Path:
    """The glossary shipped with the bot: inside the installed package, or data/ in a checkout."""
    package_dir = Path(__file__).resolve().parent.parent
    installed = package_dir / "_bundled_data"
    return installed if installed.is_dir() else package_dir.parent / "data"


def inspect_glossary(
    paths: Sequence[Path] | None = None, stage: Callable[[str], None] = lambda _: None
) -> tuple[Glossary, list[Problem]]:
    """Read and merge everything, returning the glossary with every problem found (for `check`).
    `stage` hears of each of the three stages as it begins (progress on a terminal)."""
    with collector_paused():
        return _inspect(paths, stage)


def _inspect(
    paths: Sequence[Path] | None, stage: Callable[[str], None]
) -> tuple[Glossary, list[Problem]]:
    from bot.glossary.asked_as import read_asked_as
    from bot.glossary.check import check_entries
    from bot.glossary.kinds import read_kinds
    from bot.glossary.merge import merge_sources
    from bot.glossary.models import Glossary
    from bot.glossary.other_senses import read_other_senses
    from bot.glossary.problems import Problem
    from bot.glossary.sources import read_sources

    problems: list[Problem] = []
    stage("check: reading files")
    folders = _once(list(paths) if paths else [bundled_data_dir()], problems)
    sources = read_sources(folders, problems)
    asked_as = read_asked_as(folders, problems)
    kinds = read_kinds(folders, problems)
    senses = read_other_senses(folders, problems)
    stage(f"check: merging {len(sources):,} sources")
    entries, lines = merge_sources(sources, asked_as, problems, kinds, senses)
    files = {s.info.key: s.location for s in sources}
    stage(f"check: checking {len(entries):,} entries")
    problems.extend(check_entries(entries, files, lines))
    problems[:] = _without_echoes(problems, sources)
    if paths:
        problems[:] = _bundled_references(problems, folders)
    if not entries and not any(p.severity == "error" for p in problems):
        where = ", ".join(str(p) for p in paths) if paths else "the bundled data"
        problems.append(
            Problem("error", where, "no glossary entries found" + _no_files(sources, paths))
        )
    return Glossary(tuple(entries), tuple(s.info for s in sources)), problems


def _bundled_references(problems: list[Problem], folders: Sequence[Path]) -> list[Problem]:
    """`problems`, a reference that names no entry among `folders` but names an entry of the
    bundled data (which they leave out) saying so: paths given (`check PATH`, GLOSSARY_PATHS)
    are read instead of the bundled data, so a folder of one's own relating to "rag" needs the
    bundled folder named beside it (outsider76). The bundled data is read only for them."""
    from bot.glossary.problems import Problem

    bundled = bundled_data_dir()
    missing = [p for p in problems if p.names is not None and p.severity == "error"]
    if not missing or any(_same_folder(f, bundled) for f in folders):
        return problems
    ids = {entry.id for entry in _inspect(None, lambda _: None)[0]}
    marked = {id(p) for p in missing}
    hint = (
        f" (an entry of the bundled data, {bundled}, which these paths are read instead of: "
        "name its folder beside them to serve both)"
    )
    return [
        Problem(p.severity, p.file, p.message + hint, p.entry, p.line, p.names)
        if id(p) in marked and p.names in ids
        else p
        for p in problems
    ]


def _same_folder(path: Path, folder: Path) -> bool:
    try:
        return path.resolve() == folder.resolve()
    except OSError:
        return False


def _without_echoes(problems: list[Problem], sources: Sequence[SourceData]) -> list[Problem]:
    """`problems` with the echoes of a glossary file that could not be read folded into one
    line under its error: every kind, "asked as" or other-senses table and related id naming one of its entries
    "names no entry" (one smart quote in the foundations file made 279 of them, and cut the
    reload's log line before any other). A reference to an id or name that the file's text
    (and its curation's) does not hold is no echo of it: those are named, in one line after."""
    from bot.glossary.problems import Problem

    unread = [
        s
        for s in sources
        if not s.entries
        and any(
            p.file == s.location and p.severity == "error" and p.entry is None for p in problems
        )
    ]
    if not unread:
        return problems
    echoes = [p for p in problems if p.names is not None]
    if not echoes:
        return problems
    holds = _text_holds(unread)
    absent = [p for p in echoes if not holds(p.names)]
    echoes = [p for p in echoes if holds(p.names)]
    kept = [p for p in problems if p.names is None]
    where = ", ".join(s.location for s in unread)
    one = len(unread) == 1
    this, its = ("this file", "this file's") if one else ("these files", "their")
    notes = []
    if echoes:
        many = len(echoes) > 1
        refs, verb, them = ("references", "name", "them") if many else ("reference", "names", "it")
        notes.append(
            Problem(
                "error",
                where,
                f"{len(echoes):,} {refs} to entries (kinds, asked-as tables, related ids) {verb} "
                f"no entry: not listed, as {this}, which may hold {them}, could not be read; "
                "`check` lists those left once it reads",
            )
        )
    if absent:
        shown = ", ".join(
            f"{_quoted(p)} ({p.file}{f':{p.line}' if p.line else ''})" for p in absent[:5]
        )
        more = f" … and {len(absent) - 5:,} more" if len(absent) > 5 else ""
        s_ = "s name" if len(absent) > 1 else " names"
        notes.append(
            Problem(
                "error" if any(p.severity == "error" for p in absent) else "warning",
                where,
                f"{len(absent):,} reference{s_} no entry, nor anything {its} text holds (so none "
                f"of {'its' if one else 'their'} entries, unless {'the' if one else 'a'} file is "
                f"cut short): {shown}{more}",
            )
        )
    files = {s.location for s in unread}
    at = max(i for i, p in enumerate(kept) if p.file in files) + 1
    return [*kept[:at], *notes, *kept[at:]]


def _quoted(problem: Problem) -> str:
    if problem.message.startswith("'See "):
        return f"'See {problem.names}.'"
    return repr(problem.names)


def _text_holds(unread: Sequence[SourceData]) -> Callable[[str | None], bool]:
    """Whether the text of the unread files (and their curation files) may hold an entry of
    this id or name: written there as it is, or as the slug of words there (a Markdown entry's
    id is its title's). A file that cannot be read at all may hold anything."""
    from bot.glossary.problems import file_bytes
    from bot.glossary.slug import slugify

    texts: list[str] = []
    for source in unread:
        for path in (Path(source.location), source.overlay):
            if path is None:
                continue
            try:
                texts.append(file_bytes(path).decode("utf-8", "replace"))
            except OSError:
                if path == source.overlay:
                    continue  # no curation: the file's own text is what it holds
                return lambda _: True
    text = "\n".join(texts)
    slugs = f"-{slugify(text)}-"

    def holds(named: str | None) -> bool:
        if not named:
            return True  # unknown: an echo for all we know
        slug = slugify(named)
        return named in text or (bool(slug) and f"-{slug}-" in slugs)

    return holds


def _once(paths: list[Path], problems: list[Problem]) -> list[Path]:
    """Each folder once: one given twice (`check data data`, `data ./data/`) was read twice, and
    every entry's kind reported as "a second kind", the first in the same file. One this user
    cannot read is an error naming it, and left out."""
    from bot.glossary.problems import Problem, unreadable_folder

    seen: dict[Path, Path] = {}
    kept: list[Path] = []
    for path in paths:
        why = unreadable_folder(path)
        if why is not None:  # said once here; the readers would trip on it (or pass it over)
            problems.append(Problem("error", str(path), why))
            continue
        first = seen.setdefault(path.resolve(), path)
        if first is path:
            kept.append(path)
        else:
            kind = "folder" if path.is_dir() else "file"
            message = f"the {kind} {first} is given twice: read once"
            problems.append(Problem("warning", str(path), message))
    return kept


def _no_files(sources: Sequence[object], paths: Sequence[Path] | None) -> str:
    """Why no entries were found when the folders hold no file that is read (an empty folder):
    which endings are, since a file of another is passed over without a word."""
    from bot.glossary.sources import FORMAT_BY_SUFFIX

    if sources:
        return ""
    *endings, last = FORMAT_BY_SUFFIX
    holds = "the folders hold" if paths and len(paths) > 1 else "the folder holds"
    return f": {holds} no glossary file (a {', '.join(endings)} or {last} file)"


def load_glossary(paths: Sequence[Path] | None = None) -> Glossary:
    """The glossary to serve; raises GlossaryError (naming file and entry) if any data is bad."""
    return load_glossary_warned(paths)[0]


def load_glossary_warned(paths: Sequence[Path] | None = None) -> tuple[Glossary, list[Problem]]:
    """`load_glossary`, with the warnings `check` lists of it (the bot's log counts them)."""
    from bot.glossary.problems import GlossaryError

    glossary, problems = inspect_glossary(paths)
    if any(p.severity == "error" for p in problems):  # no entries at all is one of them
        raise GlossaryError(problems)
    return glossary, problems
