"""Moderators' aliases: what makes an alias acceptable. No discord, no database here."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping

from bot.glossary import Entry, Glossary, load_glossary
from bot.glossary.keys import compact, normalize

MAX_ALIAS_LENGTH = 100
_MENTION = re.compile(r"<[@#][!&]?\d+>|@(everyone|here)\b", re.IGNORECASE)
_LINK = re.compile(r"https?://|www\.|discord\.gg/|\b[a-z0-9-]+\.(com|org|net|io|gg|dev)\b", re.I)


class AliasRejected(ValueError):
    """The alias cannot be added; the message says why, for the moderator."""


def name_owners(glossary: Glossary) -> dict[str, Entry]:
    """Every title, acronym and alias of the glossary (compacted) -> its entry."""
    owners: dict[str, Entry] = {}
    for entry in glossary:
        for name in entry.names:
            owners.setdefault(compact(name), entry)
    return owners


def check_alias(
    text: str,
    entry_id: str,
    glossary: Glossary,
    owners: Mapping[str, Entry],
) -> str:
    """The alias's key, or AliasRejected saying why (naming the entry it would clash with)."""
    if any(unicodedata.category(ch) in {"Cc", "Cf"} for ch in text):
        raise AliasRejected("An alias cannot contain control or invisible characters.")
    if _MENTION.search(text):
        raise AliasRejected("An alias cannot contain mentions.")
    if _LINK.search(text):
        raise AliasRejected("An alias cannot contain links.")
    if "`" in text:
        raise AliasRejected("An alias cannot contain code blocks or backticks.")
    key = normalize(text)
    if not key:
        raise AliasRejected("That alias is empty once punctuation and spacing are removed.")
    if len(key) > MAX_ALIAS_LENGTH:
        raise AliasRejected(f"An alias can be at most {MAX_ALIAS_LENGTH} characters long.")
    if entry_id not in glossary:
        raise AliasRejected(f"There is no glossary entry with the id “{entry_id}”.")
    owner = owners.get(compact(key))
    if owner is not None and owner.id != entry_id:
        raise AliasRejected(f"“{key}” already names **{owner.display_title}** in the glossary.")
    if owner is not None:
        raise AliasRejected(
            f"“{key}” is already a name of **{owner.display_title}**: nothing to add."
        )
    return key


@functools.cache
def _bundled() -> tuple[Glossary, dict[str, Entry]]:
    from bot.settings import Settings

    glossary = load_glossary(Settings().glossary_path_list)
    return glossary, name_owners(glossary)


def validate_alias(text: str, entry_id: str, guild_id: int) -> str:
    """For `glossary-bot aliases import`: the key, or ValueError naming the problem."""
    glossary, owners = _bundled()
    return check_alias(text, entry_id, glossary, owners)
