"""What a name typed by a moderator may not contain: one rule for aliases and server terms.

A name shows up on buttons, in autocomplete and in card fields, so it must not ping anyone, carry
Discord markup (timestamps, command links, custom emoji), link anywhere or hide characters. The
text is checked after NFKC, so fullwidth "＠everyone" is refused like "@everyone".
"""

from __future__ import annotations

import re
import unicodedata

_MENTION = re.compile(r"<[@#][!&]?\d+>|@(everyone|here)\b", re.IGNORECASE)
# Timestamps <t:1700000000:R>, command links </cmd sub:123>, custom emoji <:e:123> <a:e:123>,
# guild navigation <id:customize>.
_MARKUP = re.compile(r"<(?:t:-?\d+(?::\w)?|/[^<>]+:\d+|a?:\w+:\d+|id:\w+)>", re.IGNORECASE)
_LINK = re.compile(r"https?://|www\.|discord\.gg/|\b[a-z0-9-]+\.(com|org|net|io|gg|dev)\b", re.I)
# Control, format (zero-width, bidi), surrogate, private-use and unassigned code points, and
# line or paragraph separators.
_HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Letters that render as nothing, used to fake empty or look-alike names.
_BLANK_LETTERS = set("\u115f\u1160\u3164\uffa0\u2800")


def name_refusal(text: str, subject: str = "A name") -> str | None:
    """Why `text` cannot be a name ("An alias cannot contain links."), or None if it can."""
    folded = unicodedata.normalize("NFKC", text)
    if any(unicodedata.category(ch) in _HIDDEN_CATEGORIES or ch in _BLANK_LETTERS for ch in folded):
        return f"{subject} cannot contain control or invisible characters."
    if _MENTION.search(folded):
        return f"{subject} cannot contain mentions."
    if _MARKUP.search(folded):
        return f"{subject} cannot contain Discord markup (timestamps, command links, emoji)."
    if _LINK.search(folded):
        return f"{subject} cannot contain links."
    if "`" in folded:
        return f"{subject} cannot contain code blocks or backticks."
    return None
