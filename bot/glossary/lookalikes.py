"""Names that look alike: a Cyrillic "А" in "RAG", a Greek "Ο" for "O", "ʀᴀɢ" in small capitals.

Two names look alike when their skeletons are equal (Unicode's UTS #39: each character read as
the prototype it is confusable with). The table is `confusables.tsv` beside this file, made by
`tools/confusables_table.py` from Unicode's confusables.txt (the version and hash are there).
The key here is the skeleton of the name's `compact` key (case, width, spacing and punctuation
folded as search folds them) taken on both sides of the folding, since the table maps a capital
and its small letter apart ("I" reads as "l"; a Cyrillic "М" as "M", its small "м" otherwise).

Aliases and server terms are checked against each other's names and the bundled glossary's here,
where they are validated; search never reads this.
"""

from __future__ import annotations

import functools
import unicodedata
import weakref
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Generic, TypeVar

from bot.glossary.keys import compact, plural_variants
from bot.glossary.markup import bold
from bot.glossary.models import Entry

Owner = TypeVar("Owner", bound=Hashable)
V = TypeVar("V")
TABLE = Path(__file__).with_name("confusables.tsv")


@functools.cache
def _prototypes() -> dict[int, str]:
    """Code point -> the text it reads as (read once, on the first name checked)."""
    table: dict[int, str] = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split("\t")
            table[int(source, 16)] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, every character as its prototype, NFD again."""
    mapped = unicodedata.normalize("NFD", text).translate(_prototypes())
    return unicodedata.normalize("NFD", mapped)


@functools.lru_cache(maxsize=1 << 14)
def lookalike_key(name: str) -> str:
    """Equal for two names a reader cannot tell apart (and for spellings search reads alike)."""
    return skeleton(compact(skeleton(unicodedata.normalize("NFKC", name))))


def lookalike_keys(name: str) -> tuple[str, ...]:
    """The name's look-alike keys as written and case-folded: UTS #39 reads many capitals
    otherwise than their small letters (a capital I as "l", a small i as "i"; a Cyrillic "М" as
    "M", its "м" not as "m"), and a reader takes either for the name. Two names are alike when
    they share one."""
    return tuple(k for k in dict.fromkeys((lookalike_key(name), lookalike_key(compact(name)))) if k)


class LookAlikes(Generic[Owner]):
    """Each look-alike key -> the names with it and who holds each."""

    def __init__(self) -> None:
        self._names: dict[str, list[tuple[Owner, str]]] = {}

    def add(self, owner: Owner, names: Iterable[str | None]) -> None:
        for name in names:
            if name:
                for look in lookalike_keys(name):
                    self._names.setdefault(look, []).append((owner, name))

    def like(self, name: str, *, apart_from: Iterable[Owner] = ()) -> tuple[Owner, str] | None:
        """A name `name` looks like but is not (another spelling of), held by an owner not in
        `apart_from`: (owner, that name), or None; never names told apart (`alike`)."""
        mine = set(apart_from)
        key = compact(name)
        return next(
            ((o, held) for o, held in self.alike(name) if o not in mine and compact(held) != key),
            None,
        )

    def alike(self, name: str) -> Iterator[tuple[Owner, str]]:
        """Each (owner, name) held that shares a look-alike key with `name` (as written and
        case-folded), in the order added, but for names told apart (`_told_apart`)."""
        for look in lookalike_keys(name):
            for owner, held in self._names.get(look, ()):
                if not _told_apart(name, held):
                    yield owner, held


def alias_lookalikes(aliases: Mapping[str, str]) -> LookAlikes[str]:
    """The look-alike index of a server's aliases (alias -> entry id), each held by its entry."""
    index: LookAlikes[str] = LookAlikes()
    for alias, entry_id in aliases.items():
        index.add(entry_id, [alias])
    return index


def same_name(name: str, other: str) -> bool:
    """Whether a reader takes `name` and `other` for one name: search's key (`compact`), in
    either number (`plural_variants`, as search meets "zorblaxes"), or in letters they cannot
    tell apart (a Cyrillic "о"), but for names told apart (`_told_apart`), as in `like`."""
    key, other_key = compact(name), compact(other)
    if key == other_key or other_key in plural_variants(key):
        return bool(key)
    if _told_apart(name, other):
        return False
    return any(
        look == other_look or other_look in plural_variants(look)
        for look in lookalike_keys(name)
        for other_look in lookalike_keys(other)
    )


def letters_alike(names: Mapping[str, V]) -> Callable[[str], V | None]:
    """Finds, for a name, the value of one of `names` a reader cannot tell it apart from: its
    look-alike key (no other number: "gas" is not "GA"'s; never names told apart, as in
    `like`), or None. Keyed once, for many look-ups; `find` takes a name as written (its
    capitals read as they look)."""
    index: LookAlikes[str] = LookAlikes()  # each name held by itself
    for name in names:
        index.add(name, [name])

    def find(name: str) -> V | None:
        # As written and case-folded (`lookalike_keys`): `names` are keys already folded
        # ("ram"); "LΙME"'s Greek Ι reads as "l", its small ι as "i".
        held = next(index.alike(name), None)
        return None if held is None else names[held[0]]

    return find


def _other_script(name: str) -> bool:
    """Not ASCII and without a Latin letter: written in another script ("ρ", "кэш")."""
    folded = unicodedata.normalize("NFKC", name)
    return not folded.isascii() and not any(
        char.isalpha() and unicodedata.name(char, "").startswith("LATIN ") for char in folded
    )


def _told_apart(name: str, other: str) -> bool:
    """Names never look-alikes however they look: two written in plain ASCII ("AL" and "AI",
    "modern" and "modem" are different words that people type), or one written wholly in
    another script, a name of its own, not a spelling (Greek "ρ", Spearman's rho, is not "p";
    "ΤΟΡ" is a Greek server's word, not "TOP"): only a name mixing scripts ("Zоrblax", Latin
    with a Cyrillic о) is another's look-alike."""
    return (_plain(name) and _plain(other)) or _other_script(name) or _other_script(other)


def _plain(name: str) -> bool:
    """Written in ASCII once widths and compatibility forms are folded ("ＲＡＧ" is "RAG")."""
    return unicodedata.normalize("NFKC", name).isascii()


def looks_like(name: str, held: str, title: str) -> str:
    """What a moderator is told when `name` looks like `held`, a name of the entry `title`."""
    return (
        f"“{name}” looks like “{held}”, a name of {bold(title)}: members could not tell them "
        "apart. Choose another name."
    )


def entry_lookalikes(holder: object, entries: Iterable[Entry]) -> LookAlikes[Entry]:
    """The look-alike index of `entries`' names, built once for each `holder` of them (a
    glossary, a search index: the same object holds the same entries)."""
    index = _BUILT.get(holder)
    if index is None:
        index = LookAlikes()
        for entry in entries:
            index.add(entry, entry.names)
        _BUILT[holder] = index
    return index


_BUILT: weakref.WeakKeyDictionary[object, LookAlikes[Entry]] = weakref.WeakKeyDictionary()


def glossary_name_alike(
    holder: object,
    entries: Iterable[Entry],
    aliases: LookAlikes[str],
    name: str,
    *,
    apart_from: Entry | None = None,
) -> tuple[str, Entry | str] | None:
    """The name of a server's glossary that `name` looks like but is not: an entry's (the
    server's terms among them; `entry_lookalikes`), else an alias's (`aliases`: the server's
    `alias_lookalikes`, kept with its compiled aliases); with that entry, or the id the alias
    stands for (each caller says which card that is). `apart_from`: the entry that takes
    `name`, whose own names and aliases it may look like."""
    mine = [] if apart_from is None else [apart_from]
    held = entry_lookalikes(holder, entries).like(name, apart_from=mine)
    if held is not None:
        return held[1], held[0]
    found = aliases.like(name, apart_from=[e.id for e in mine])
    return None if found is None else (found[1], found[0])
