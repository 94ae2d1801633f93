"""Kinds: what kind of thing each entry names, curated in `kinds/*.toml` (`vllm = "tool"`).

The search reads a kind where one question names two entries: in "how does vllm do paged
attention" a tool or model is where the method happens, not what is asked about. A data folder's
`kinds/` covers every entry of the folders loaded with it: an unknown id or an unknown kind is an
error naming the file, an entry with no kind a warning at the entry (a file of one's own checked
beside the bundled data still loads). Folders with no such files give no kinds (a server's own
terms have none either); the search reads no kind as unknown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.glossary.formats.raw import RawEntry
from bot.glossary.models import KINDS
from bot.glossary.problems import Problem, unknown_ids
from bot.glossary.toml import folder_files, line_of

FOLDER = "kinds"


class KindFile(dict[str, str]):
    """Kind per entry id, and the file each id was written in, its kind known or not (to name
    it in problems)."""

    def __init__(self) -> None:
        super().__init__()
        self.files: dict[str, Path] = {}


def read_kinds(paths: Sequence[Path], problems: list[Problem]) -> KindFile:
    """The kind of each entry id from every data folder's `kinds/` (files in name order)."""
    found = KindFile()
    for file, data in folder_files(paths, FOLDER, problems):
        where = str(file)
        for entry_id, kind in data.items():
            if entry_id in found.files:
                message = f"a second kind (the first in {found.files[entry_id]})"
                problems.append(Problem("error", where, message, entry_id))
                continue
            found.files[entry_id] = file
            if kind in KINDS:
                found[entry_id] = kind
            else:
                message = f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})"
                problems.append(
                    Problem("error", where, message, entry_id, _key_line(file, entry_id))
                )
    return found


def kinds_by_id(
    groups: Mapping[str, Sequence[RawEntry]], kinds: KindFile, problems: list[Problem]
) -> dict[str, str]:
    """Each entry's kind, given every entry's records by id (the leading one first): an id of
    no entry is an error naming the kinds file; where any kinds were read, an entry with no kind
    is a warning at its leading record's file and line."""
    problems.extend(unknown_ids(kinds.files, groups, _key_line))
    if kinds.files:
        for entry_id, (lead, *_) in groups.items():
            if entry_id not in kinds.files:
                # Named at the entry (the kinds read may be the bundled file alone, which an
                # operator cannot edit), with what they can do.
                message = (
                    "the entry has no kind: the search reads it as unknown (give it one in a "
                    "kinds/*.toml of a folder served with it)"
                )
                problems.append(Problem("warning", lead.file, message, lead.local_id, lead.line))
    return {entry_id: kinds[entry_id] for entry_id in groups if entry_id in kinds}


def _key_line(file: Path, entry_id: str) -> int | None:
    """The line that gives `entry_id` its kind in `file`."""
    return line_of(file, r"([\"']?)" + re.escape(entry_id) + r"\1\s*=")
