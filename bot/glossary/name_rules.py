"""What a name typed by a moderator may not contain: one rule for aliases and server terms.

A name shows up on buttons, in autocomplete and in card fields, so it must not ping anyone, carry
Discord markup (timestamps, command links, custom emoji), link anywhere or hide characters. The
text is checked after NFKC, so fullwidth "＠everyone" is refused like "@everyone".
"""

from __future__ import annotations

import re
import unicodedata

_MENTION = re.compile(r"<[@#][!&]?\d+>|@(everyone|here)\b", re.IGNORECASE)
_LINK = re.compile(r"https?://|www\.|discord\.gg/|\b[a-z0-9-]+\.(com|org|net|io|gg|dev)\b", re.I)
# Anything Discord renders between angle brackets: mentions, timestamps <t:1:F>, slash command
# links </define:1>, custom emoji <:name:1> and <a:name:1>, guide links <id:customize>.
_DISCORD_MARKUP = re.compile(r"<(?:[@#/]|a?:|t:|id:)[^<>]*>", re.IGNORECASE)
# Format, private-use, unassigned, surrogate and line/paragraph separator characters.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
# Blank-looking letters and symbols outside those categories: Hangul fillers, the braille blank,
# the combining grapheme joiner, Khmer inherent vowels, Mongolian and other variation selectors.
_BLANKS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0"
    + "".join(map(chr, range(0x180B, 0x1810)))
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)


def name_refusal(text: str, subject: str = "A name") -> str | None:
    """Why `text` cannot be a name ("An alias cannot contain links."), or None if it can."""
    text = unicodedata.normalize("NFKC", text)
    if any(unicodedata.category(ch) in _INVISIBLE_CATEGORIES or ch in _BLANKS for ch in text):
        return f"{subject} cannot contain control or invisible characters."
    if text.strip() and all(ch.isspace() or unicodedata.category(ch)[0] == "M" for ch in text):
        # Accents with no letter under them float over the text around them, or show nothing.
        return f"{subject} needs a letter, digit or symbol, not accents alone."
    if any(ch.isspace() and ch != " " for ch in text):
        return f"{subject} cannot contain line breaks or tabs."
    if _MENTION.search(text):
        return f"{subject} cannot contain mentions."
    if _DISCORD_MARKUP.search(text):
        return f"{subject} cannot contain Discord markup (emoji, timestamps, links)."
    if _LINK.search(text):
        return f"{subject} cannot contain links."
    if "`" in text:
        return f"{subject} cannot contain code blocks or backticks."
    return None
