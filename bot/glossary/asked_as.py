""" "Asked as": how people describe an entry without its name, curated in `asked-as/*.toml`.

Each file maps entry ids to phrasings: `["kv-cache"]` then `asked_as = ["...", ...]`. They are
content like definitions (the search uses them to find a card from a description) and are checked
the same way: an unknown id or a malformed list is an error naming the file and the id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.glossary.names import NameIndex
from bot.glossary.problems import Problem, unknown_ids
from bot.glossary.toml import folder_files, line_of, table_line

FOLDER = "asked-as"
MAX_PHRASINGS = 40
MAX_PHRASING_CHARS = 300


class Phrasings(dict[str, list[str]]):
    """Phrasings per entry id, and the file each id, and each phrasing of an id, was first met
    in (to name it in problems)."""

    def __init__(self) -> None:
        super().__init__()
        self.files: dict[str, Path] = {}
        self.phrasing_files: dict[tuple[str, str], Path] = {}


def read_asked_as(paths: Sequence[Path], problems: list[Problem]) -> Phrasings:
    """Phrasings per entry id from every data folder's `asked-as/` (files in name order)."""
    found = Phrasings()
    for file, data in folder_files(paths, FOLDER, problems):
        _read_tables(file, data, found, problems)
    return found


def _read_tables(
    file: Path, data: dict[str, Any], found: Phrasings, problems: list[Problem]
) -> None:
    where = str(file)  # as the folder was named, like the other data files
    for entry_id, table in data.items():
        phrasings = table.get("asked_as") if isinstance(table, dict) else None
        if (
            not isinstance(table, dict)
            or set(table) != {"asked_as"}
            or not isinstance(phrasings, list)
            or not all(isinstance(p, str) and p.strip() for p in phrasings)
        ):
            problems.append(
                Problem("error", where, "expected asked_as = [non-empty strings] only", entry_id)
            )
            continue
        for phrasing in phrasings:
            if len(phrasing) > MAX_PHRASING_CHARS:
                problems.append(
                    Problem(
                        "error",
                        where,
                        f"a phrasing longer than {MAX_PHRASING_CHARS} characters",
                        entry_id,
                    )
                )
        earlier = found.get(entry_id, [])  # each phrasing once, in the order first met
        found.files.setdefault(entry_id, file)
        found[entry_id] = list(dict.fromkeys([*earlier, *(p.strip() for p in phrasings)]))
        for phrasing in phrasings:
            found.phrasing_files.setdefault((entry_id, phrasing.strip()), file)


def phrasings_naming_others(asked_as: Phrasings, names: NameIndex[str]) -> list[Problem]:
    """A warning for each phrasing that is another entry's title, acronym or other name
    ("retrieval augmented generation" under kv-cache): search finds that entry by it, never
    this one, so the phrasing only draws descriptions near it to the wrong card. A phrasing
    that merely writes a name among its words is a description, and fine."""
    problems: list[Problem] = []
    entries = set(names.owners.values())  # a table naming no entry is its error alone
    for entry_id, phrasings in asked_as.items():
        for phrasing in phrasings if entry_id in entries else ():
            owner = names.owner(phrasing)
            if owner is None or owner == entry_id:
                continue
            file = asked_as.phrasing_files[entry_id, phrasing]
            quoted = r".*?([\"'])\s*" + re.escape(phrasing) + r"\s*\1"
            message = (
                f"asked-as phrasing {phrasing!r} is a name of {owner!r}, which search finds "
                "by it, never this entry: drop the phrasing"
            )
            problems.append(Problem("warning", str(file), message, entry_id, line_of(file, quoted)))
    return problems


def phrasings_by_id(
    ids: Iterable[str], asked_as: Phrasings, problems: list[Problem]
) -> dict[str, tuple[str, ...]]:
    """Each entry's phrasings as its `asked_as`, given the ids of every entry (in order); an id
    that names no entry is an error (naming the file and line of its table), and so are more
    than MAX_PHRASINGS for one entry."""
    ids = list(ids)
    known = set(ids)
    problems.extend(unknown_ids(asked_as.files, known, table_line))
    out = {}
    for entry_id in ids:
        phrasings = asked_as.get(entry_id)
        if phrasings:
            if len(phrasings) > MAX_PHRASINGS:
                problems.append(
                    Problem("error", FOLDER, f"more than {MAX_PHRASINGS} phrasings", entry_id)
                )
            out[entry_id] = tuple(phrasings[:MAX_PHRASINGS])
    return out
