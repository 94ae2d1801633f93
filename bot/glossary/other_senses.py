"""Other senses: what an entry's plain-word name means outside the field, curated in
`other-senses/*.toml` (task senses77; the senses were offfield76's, beside the search code).

Each file maps entry ids to a few words of each other sense: `[transformers]` then
`senses = ["an electrical transformer on a utility pole ...", ...]`. The search reads them
(`bot.search.senses`): a card for the entry whose text leans to one of them over the entry is
offered instead ("what is a transformer on a power pole"). They are checked like the asked-as
tables: an unknown id, a malformed list, too many or too long a sense is an error naming the
file and the id. A server's own terms carry theirs as a term field (`ServerTerm.other_senses`),
checked by the same rules (`sense_problems`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from bot.glossary.problems import Problem, unknown_ids
from bot.glossary.toml import folder_files, table_line

FOLDER = "other-senses"
MAX_SENSES = 5  # an entry's; the bundled data's most is 3
MAX_SENSE_CHARS = 150  # a sense is a few words of a setting, not a definition (the longest: 84)
MIN_SENSE_WORDS = 2  # "snake" alone is near little: "the python snake, a pet reptile"


class Senses(dict[str, list[str]]):
    """Senses per entry id, and the file each id was first met in (to name it in problems)."""

    def __init__(self) -> None:
        super().__init__()
        self.files: dict[str, Path] = {}


def sense_problems(senses: Sequence[str]) -> list[str]:
    """What is wrong with one entry's or term's senses, each said for whoever wrote them (a
    maintainer's file, a moderator's option or import): too many, too long, or too short to
    name a setting."""
    said: list[str] = []
    if len(senses) > MAX_SENSES:
        said.append(f"at most {MAX_SENSES} other senses ({len(senses)})")
    for sense in senses:
        if len(sense) > MAX_SENSE_CHARS:
            said.append(
                f"an other sense longer than {MAX_SENSE_CHARS} characters ({len(sense):,}): "
                "a few words of the other setting, not a definition"
            )
        elif len(re.findall(r"\w+", sense)) < MIN_SENSE_WORDS:
            said.append(
                f"an other sense of one word ({sense!r}): write a few words of that setting "
                "(“an army tank”, “a fish tank”), which the search compares a question with"
            )
    return said


def read_other_senses(paths: Sequence[Path], problems: list[Problem]) -> Senses:
    """Senses per entry id from every data folder's `other-senses/` (files in name order)."""
    found = Senses()
    for file, data in folder_files(paths, FOLDER, problems):
        where = str(file)
        for entry_id, table in data.items():
            senses = table.get("senses") if isinstance(table, dict) else None
            line = table_line(file, entry_id)
            if (
                not isinstance(table, dict)
                or set(table) != {"senses"}
                or not isinstance(senses, list)
                or not senses
                or not all(isinstance(s, str) and s.strip() for s in senses)
            ):
                message = "expected senses = [non-empty strings] only"
                problems.append(Problem("error", where, message, entry_id, line))
                continue
            earlier = found.get(entry_id, [])  # each sense once, in the order first met
            found.files.setdefault(entry_id, file)
            found[entry_id] = list(dict.fromkeys([*earlier, *(s.strip() for s in senses)]))
            for message in sense_problems(found[entry_id]):
                problems.append(Problem("error", where, message, entry_id, line))
    return found


def senses_by_id(
    ids: Iterable[str], senses: Senses, problems: list[Problem]
) -> dict[str, tuple[str, ...]]:
    """Each entry's other senses, given the ids of every entry; an id that names no entry is
    an error naming the file and line of its table."""
    known = set(ids)
    problems.extend(unknown_ids(senses.files, known, table_line))
    return {
        entry_id: tuple(found[:MAX_SENSES])
        for entry_id, found in senses.items()
        if entry_id in known
    }
