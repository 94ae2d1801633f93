"""Text keys shared by the glossary, search, alias validation and the command line.

Technical terms want their own normaliser: rapidfuzz's `default_process` maps "C++" to "c" and
"UTF-8" to "utf 8". Here separators become single spaces and `compact` drops them altogether, so
`kv-cache`, `kv cache`, `KV_Cache` and `kvcache` all meet on one key.
"""

from __future__ import annotations

import re
import string
import unicodedata

# Zero-width, bidi control and emoji-or-text presentation characters carry no meaning in a
# search box.
_INVISIBLE = re.compile(
    "[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufe0e\ufe0f\ufeff]"
)
# Typographic apostrophes become ASCII ones so "what’s" reads like "what's".
_APOSTROPHES = re.compile("[’‘ʼ]")
_MARKUP = re.compile(r"[`*_~|>\"“”«»]")
_QUOTE = re.compile(r"(?:^|(?<=\s))'+|'+(?=\s|$)")  # quote marks, not apostrophes in words
_SPACE_RUNS = re.compile(" {2,}")
_SEPARATORS = re.compile(r"[\s\-‐‑‒–—―_/.,:;!?()\[\]{}]+")

# Plain ASCII, by far the common case, takes one byte-table pass: fold case, blank out markup and
# separators (the same characters as the patterns above).
_ASCII_BLANKS = string.whitespace + '`*_~|>"-/.,:;!?()[]{}'
_ASCII_TABLE = bytes.maketrans(
    (string.ascii_uppercase + _ASCII_BLANKS).encode(),
    (string.ascii_lowercase + " " * len(_ASCII_BLANKS)).encode(),
)


def normalize(text: str) -> str:
    """Fold case and width, drop markup and quotes, turn separators into single spaces."""
    if text.isascii() and text.isprintable():
        folded = text.encode("ascii").translate(_ASCII_TABLE).decode("ascii")
    else:
        folded = unicodedata.normalize("NFKC", text)
        folded = _INVISIBLE.sub("", folded)
        folded = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in folded)
        # Case folding can undo NFKC (Greek with accents), so compose once more after it.
        folded = unicodedata.normalize("NFKC", _APOSTROPHES.sub("'", folded).casefold())
        folded = _SEPARATORS.sub(" ", _MARKUP.sub(" ", folded))
    if "'" in folded:
        folded = _QUOTE.sub(" ", " ".join(folded.split()))
    return " ".join(folded.split())


def compact(text: str) -> str:
    """`normalize` without spaces or apostrophes: where "kv cache" meets "kvcache" and
    "goodharts law" meets "Goodhart's Law"."""
    if text.isascii() and text.isprintable():  # the spaces and quotes normalize tidies all go
        folded = text.encode("ascii").translate(_ASCII_TABLE, b" '")
        return folded.replace(b" ", b"").decode("ascii")
    return normalize(text).replace(" ", "").replace("'", "")


def normalize_many(texts: list[str]) -> list[str]:
    """`normalize` for many strings: the plain ASCII ones share one translation pass."""
    plain = [i for i, t in enumerate(texts) if t.isascii() and t.isprintable()]
    if not plain:
        return [normalize(t) for t in texts]
    joined = "\x1f".join(texts[i] for i in plain)  # a unit separator survives the table
    folded = joined.encode("ascii").translate(_ASCII_TABLE).decode("ascii")
    folded = _SPACE_RUNS.sub(" ", folded).replace(" \x1f", "\x1f").replace("\x1f ", "\x1f")
    result = [normalize(t) for t in texts] if len(plain) < len(texts) else texts[:]
    for i, text in zip(plain, folded.strip(" ").split("\x1f"), strict=True):
        result[i] = text
    if "'" in folded:  # quote marks, rare in names: the full treatment
        for i in plain:
            if "'" in result[i]:
                result[i] = normalize(texts[i])
    return result
