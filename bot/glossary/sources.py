"""Which files make up a glossary, in what format, and where their content came from.

A data folder may carry a `sources.toml` manifest naming its files in priority order (the richest
source first: its wording leads a merged card). A folder without one, or single files, are read by
their extension. The bundled data ships inside the wheel and sits at the top of a source checkout.
"""

# Annotations are evaluated as the module loads (no `from __future__ import annotations`): the
# records' field types are read at every start (bot.glossary.records), and strings would be
# evaluated one by one then.

import re
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import Any, Literal, cast

from bot.glossary.formats.curated_toml import apply_overlay, read_curated_toml
from bot.glossary.formats.markdown import read_markdown
from bot.glossary.formats.raw import RawEntry
from bot.glossary.formats.topics_json import read_topics_json
from bot.glossary.models import SourceInfo
from bot.glossary.problems import Problem, file_bytes, read_utf8
from bot.glossary.records import Record, RecordError, field, parse_record
from bot.glossary.slug import slugify
from bot.glossary.toml import TomlError, parse_toml
from bot.sizes import said_sizes


def builtin_sha256(modules: Sequence[str] = ("_sha256", "_sha2")) -> Callable[[bytes], Any]:
    """CPython's own sha256, from the first of `modules` there is (3.11 names it `_sha256`, 3.12
    `_sha2`), else hashlib's: hashlib would load OpenSSL and ready each of its algorithms, a
    twentieth of `check`'s start-up, to hash two files."""
    for name in modules:
        try:
            return cast("Callable[[bytes], Any]", import_module(name).sha256)
        except (ImportError, AttributeError):
            continue
    from hashlib import sha256  # only here: importing it costs what the above saves

    return sha256


sha256 = builtin_sha256()

Format = Literal["topics-json", "markdown", "curated-toml"]
MANIFEST = "sources.toml"
# Parsing and checking take about a second per 10 MB (far more for some shapes of TOML): a
# start-up or reload must not stall on a runaway file. 4 MiB holds some 40,000 entries; split a
# larger glossary into files.
MAX_FILE_BYTES = 4 * 1024 * 1024
OVERLAY_SUFFIX = ".curation.toml"

READERS: dict[Format, Callable[[Path, str, list[Problem]], list[RawEntry]]] = {
    "topics-json": read_topics_json,
    "markdown": read_markdown,
    "curated-toml": read_curated_toml,
}
FORMAT_BY_SUFFIX: dict[str, Format] = {
    ".json": "topics-json",
    ".md": "markdown",
    ".txt": "markdown",
    ".toml": "curated-toml",
}


class ManifestSource(Record):
    key: str = field(pattern=r"^[a-z0-9-]+$")
    name: str = field(min_length=1)
    file: str = field(min_length=1)
    format: Format
    origin: str = ""
    curation: str | None = None  # an overlay file for a file kept verbatim
    sha256: str | None = None  # of the file's text as UTF-8 with LF line ends and no BOM
    app_name: str | None = None  # the application the source speaks of as "this app"
    app_sentences: list[str] = field(default_factory=list)  # regexes marking such sentences


class Manifest(Record):
    sources: list[ManifestSource] = field(min_length=1)


class SourceData:
    """One file read: its description, its entries and how to spot its app-specific sentences."""

    def __init__(
        self,
        info: SourceInfo,
        location: str,
        entries: list[RawEntry],
        app_sentences: Sequence[re.Pattern[str]] = (),
        overlay: Path | None = None,
        *,
        verbatim: bool = False,
    ) -> None:
        self.info = info
        self.location = location  # the file as the paths given name it, for problem reports
        self.entries = entries
        self.app_sentences = list(app_sentences)
        self.overlay = overlay  # its curation file, which may give its entries other ids
        self.verbatim = verbatim  # kept as taken (its sha256 recorded): not the maintainer's


def read_sources(paths: Sequence[Path], problems: list[Problem]) -> list[SourceData]:
    """Read every file the paths name, in priority order."""
    sources: list[SourceData] = []
    for path in paths:
        if path.is_dir() and (path / MANIFEST).is_file():
            sources.extend(_read_manifest_folder(path, problems))
        elif path.is_dir():
            for file in sorted(path.iterdir()):
                if file.suffix in FORMAT_BY_SUFFIX and not file.name.endswith(OVERLAY_SUFFIX):
                    sources.append(_read_plain_file(file, problems))
        elif path.is_file():
            sources.append(_read_plain_file(path, problems))
        elif path.exists():  # a device or a pipe: never read (/dev/zero would not end)
            problems.append(Problem("error", str(path), "not a file or folder"))
        else:
            problems.append(Problem("error", str(path), "no such file or folder"))
    return sources


def _too_large(path: Path, problems: list[Problem]) -> bool:
    try:
        size = path.stat().st_size
    except OSError:
        return False  # the reader reports an unreadable file
    if size <= MAX_FILE_BYTES:
        return False
    problems.append(
        Problem(
            "error",
            str(path),
            "file is {}, more than the {} a glossary file may be: split it into several "
            "files".format(*said_sizes(size, MAX_FILE_BYTES)),
        )
    )
    return True


def _was_read(entries: list[RawEntry], problems: Sequence[Problem]) -> bool:
    """Whether a file's reading, which reported `problems`, read it: not when it gave no entry
    and an error about the whole file (not valid JSON or TOML, not UTF-8)."""
    return bool(entries) or not any(p.severity == "error" and p.entry is None for p in problems)


def _read_plain_file(path: Path, problems: list[Problem]) -> SourceData:
    key = slugify(path.stem) or "glossary"
    info = SourceInfo(key=key, name=path.stem, file=path.name)
    fmt = FORMAT_BY_SUFFIX.get(path.suffix)
    if fmt is None:
        problems.append(Problem("error", str(path), f"unknown file type {path.suffix!r}"))
        return SourceData(info, str(path), [])
    if _too_large(path, problems):
        return SourceData(info, str(path), [])
    before = len(problems)
    entries = READERS[fmt](path, key, problems)
    overlay = path.with_name(path.stem + OVERLAY_SUFFIX)
    if overlay.is_file() and fmt != "curated-toml":
        apply_overlay(
            overlay, entries, problems, curated_read=_was_read(entries, problems[before:])
        )
    return SourceData(info, str(path), entries)


def _read_manifest_folder(folder: Path, problems: list[Problem]) -> list[SourceData]:
    manifest_file = str(folder / MANIFEST)
    text = read_utf8(folder / MANIFEST, problems)
    if text is None:
        return []
    try:
        manifest = parse_record(Manifest, parse_toml(text))
    except TomlError as exc:
        problems.append(Problem("error", manifest_file, f"cannot read the manifest: {exc}"))
        return []
    except RecordError as exc:
        for msg in exc.messages:
            problems.append(Problem("error", manifest_file, msg))
        return []

    out = []
    for src in _listed_once(manifest, manifest_file, problems):
        path = folder / src.file
        if not path.is_file():
            problems.append(Problem("error", manifest_file, f"names a missing file {src.file!r}"))
            continue
        if _too_large(path, problems):
            continue
        if src.sha256:
            _check_sha256(path, src.sha256, problems)
        before = len(problems)
        entries = READERS[src.format](path, src.key, problems)
        if src.curation:
            read = _was_read(entries, problems[before:])
            apply_overlay(folder / src.curation, entries, problems, curated_read=read)
        info = SourceInfo(
            key=src.key, name=src.name, file=src.file, origin=src.origin, app_name=src.app_name
        )
        patterns = []
        for pattern in src.app_sentences:
            try:
                patterns.append(re.compile(pattern))
            except re.error as exc:
                problems.append(Problem("error", manifest_file, f"bad app_sentences regex: {exc}"))
        overlay = folder / src.curation if src.curation else None
        out.append(
            SourceData(info, str(path), entries, patterns, overlay, verbatim=bool(src.sha256))
        )
    _warn_unlisted(folder, manifest, problems)
    return out


def _listed_once(
    manifest: Manifest, manifest_file: str, problems: list[Problem]
) -> list[ManifestSource]:
    """The manifest's sources, each file and key once. A table pasted twice had the file read
    twice: every card of it gave its own wording twice, under one name."""
    files: dict[str, str] = {}
    keys: dict[str, str] = {}
    once = []
    for src in manifest.sources:
        if src.file in files:
            message = (
                f"[[sources]] {src.key!r} names the file {src.file!r} of [[sources]] "
                f"{files[src.file]!r} again: list each file once"
            )
        elif src.key in keys:
            message = (
                f"two [[sources]] tables have the key {src.key!r} ({keys[src.key]!r} and "
                f"{src.file!r}): give each its own"
            )
        else:
            files[src.file], keys[src.key] = src.key, src.file
            once.append(src)
            continue
        problems.append(Problem("error", manifest_file, message))
    return once


def _warn_unlisted(folder: Path, manifest: Manifest, problems: list[Problem]) -> None:
    """A glossary file added to a manifest's folder without a [[sources]] table is never read:
    say so, or its entries are silently missing."""
    listed = (
        {MANIFEST} | {s.file for s in manifest.sources} | {s.curation for s in manifest.sources}
    )
    for file in sorted(folder.iterdir()):
        if file.suffix in FORMAT_BY_SUFFIX and file.name not in listed and file.is_file():
            message = f"not listed in {MANIFEST}, so not read: add a [[sources]] table for it"
            problems.append(Problem("warning", str(file), message))


def text_sha256(raw: bytes) -> str:
    """sha256-utf8-lf-no-bom: the hash of the text, not of how an editor saved its line ends."""
    text = raw.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    return str(sha256(text.encode("utf-8")).hexdigest())


def _check_sha256(path: Path, expected: str, problems: list[Problem]) -> None:
    try:
        actual = text_sha256(file_bytes(path))
    except (OSError, UnicodeDecodeError):
        return  # the reader reports an unreadable file
    if actual != expected:
        problems.append(
            Problem(
                "error",
                str(path),
                f"content does not match the sha256 recorded in {MANIFEST} "
                f"(recorded {expected[:12]}..., found {actual[:12]}...): the file changed since it "
                f'was recorded; if the change is intended, set sha256 = "{actual}"',
            )
        )
