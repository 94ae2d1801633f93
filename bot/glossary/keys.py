"""Text keys shared by the glossary, search, alias validation and the command line.

Technical terms want their own normaliser: rapidfuzz's `default_process` maps "C++" to "c" and
"UTF-8" to "utf 8". Here separators become single spaces and `compact` drops them altogether, so
`kv-cache`, `kv cache`, `KV_Cache` and `kvcache` all meet on one key.
"""

from __future__ import annotations

import re
import unicodedata

from bot.glossary.invisible import drop_invisible

# The patterns are compiled on first use (the `re` module keeps them): plain ASCII, by far the
# common case, needs none but the quotes', so loading the glossary compiles none of them.
# Typographic apostrophes become ASCII ones so "what’s" reads like "what's".
_APOSTROPHES = "[’‘ʼ]"
_MARKUP = r"[`*_~|>\"“”«»]"
_QUOTE = r"(?:^|(?<=\s))'+|'+(?=\s|$)"  # quote marks, not apostrophes in words
_SPACE_RUNS = " {2,}"
_SEPARATORS = r"[\s\-‐‑‒–—―_/.,:;!?()\[\]{}]+"

# Plain ASCII takes one byte-table pass: fold case, blank out markup and separators (the same
# characters as the patterns above).
_ASCII_BLANKS = " \t\n\r\x0b\x0c" + '`*_~|>"-/.,:;!?()[]{}'
_ASCII_TABLE = bytes.maketrans(
    bytes(range(ord("A"), ord("Z") + 1)) + _ASCII_BLANKS.encode(),
    bytes(range(ord("a"), ord("z") + 1)) + b" " * len(_ASCII_BLANKS),
)


def normalize(text: str) -> str:
    """Fold case and width, drop markup and quotes, turn separators into single spaces."""
    if text.isascii() and text.isprintable():
        folded = text.encode("ascii").translate(_ASCII_TABLE).decode("ascii")
    else:
        folded = unicodedata.normalize("NFKC", text)
        folded = drop_invisible(folded)  # they carry no meaning in a search box
        folded = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in folded)
        # Case folding can undo NFKC (Greek with accents), so compose once more after it.
        folded = unicodedata.normalize("NFKC", re.sub(_APOSTROPHES, "'", folded).casefold())
        folded = re.sub(_SEPARATORS, " ", re.sub(_MARKUP, " ", folded))
    if "'" in folded:
        folded = re.sub(_QUOTE, " ", " ".join(folded.split()))
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
    folded = re.sub(_SPACE_RUNS, " ", folded).replace(" \x1f", "\x1f").replace("\x1f ", "\x1f")
    result = [normalize(t) for t in texts] if len(plain) < len(texts) else texts[:]
    for i, text in zip(plain, folded.strip(" ").split("\x1f"), strict=True):
        result[i] = text
    if "'" in folded:  # quote marks, rare in names: the full treatment
        for i in plain:
            if "'" in result[i]:
                result[i] = normalize(texts[i])
    return result


def plural_variants(key: str) -> list[str]:
    """Other number forms of a compact key's last word: caches -> cache, query -> queries."""
    forms: list[str] = []
    if len(key) < 3:
        return forms
    if key.endswith("ies") and len(key) > 4:
        forms.append(key[:-3] + "y")
    if key.endswith("es"):
        forms.append(key[:-2])
    if key.endswith("s") and not key.endswith(("ss", "us", "is")):
        forms.append(key[:-1])
    if key.endswith("y") and key[-2:-1] not in ("a", "e", "o", "u"):
        forms.append(key[:-1] + "ies")
    if key.endswith(("s", "x", "z", "ch", "sh")):
        forms.append(key + "es")
    if not key.endswith("s") or key.endswith(("ss", "us", "is")):
        forms.append(key + "s")
    return [f for f in forms if f != key]
