"""Characters that show nothing, defined once for every reader of typed text: search keys drop
them (`keys.normalize`: "trans\\u00adformer" is "transformer"), names refuse them outside emoji
(`name_rules`), "Explain terms" drops them from the message it reads, keeping the joiners, and
user text shown back (`quote`) drops them, keeping the variation selectors and the joiners where
names may have them (`name_rules.shaping_joiner`).

They are Unicode's format characters (category Cf: the soft hyphen, zero-width space, non-joiner
and joiner, word joiner, direction marks, embeddings and isolates, the byte-order mark, tags) and
the variation selectors (the emoji or text look of the symbol before them). The list is written
out (Unicode 15) so that nothing scans the character database at import;
tests/glossary/test_invisible.py checks it against the running Python's `unicodedata`.
"""

from __future__ import annotations

import re

# First and last code point of each run: format characters (Cf).
_FORMAT = (
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
# Variation selectors: Mongolian, standard (FE0E text, FE0F emoji), ideographic.
_SELECTORS = (
    (0x180B, 0x180D),
    (0x180F, 0x180F),
    (0xFE00, 0xFE0F),
    (0xE0100, 0xE01EF),
)
_RANGES = _FORMAT + _SELECTORS
INVISIBLE_CHARS = frozenset(chr(c) for first, last in _RANGES for c in range(first, last + 1))
# The same as a regex character class, for `re` (which compiles it on first use and keeps it).
_INVISIBLE_CLASS = "[" + "".join(f"{chr(first)}-{chr(last)}" for first, last in _RANGES) + "]"
# The variation selectors alone: user text shown back (`quote`) keeps them, so an emoji keeps
# the look its writer chose ("❤️", not the text heart).
VARIATION_SELECTORS = "".join(chr(c) for first, last in _SELECTORS for c in range(first, last + 1))
# Zero-width non-joiner and joiner: they glue emoji into one (👩‍💻) and shape the words of some
# scripts (a Persian half-space), so text read for its words may keep them.
JOINERS = "\u200c\u200d"


def drop_invisible(text: str, keep: str = "") -> str:
    """`text` without the characters that show nothing, but those in `keep`."""
    if text.isascii():
        return text
    pattern = f"(?![{re.escape(keep)}]){_INVISIBLE_CLASS}" if keep else _INVISIBLE_CLASS
    return re.sub(pattern, "", text)
