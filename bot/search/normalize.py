"""Text normalisation shared by search, alias validation and the command line.

Technical terms want their own normaliser: rapidfuzz's `default_process` maps "C++" to "c" and
"UTF-8" to "utf 8". Here separators become single spaces and `compact` drops them altogether, so
`kv-cache`, `kv cache`, `KV_Cache` and `kvcache` all meet on one key.
"""

from __future__ import annotations

import re
import unicodedata

# Zero-width and bidi control characters carry no meaning in a search box.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")
_MARKUP = re.compile(r"[`*_~|>\"“”‘’«»]|'(?=\s|$)|(?<=\s)'|^'")
_SEPARATORS = re.compile(r"[\s\-‐‑‒–—―_/.,:;!?()\[\]{}]+")


def normalize(text: str) -> str:
    """Fold case and width, drop markup and quotes, turn separators into single spaces."""
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    text = text.casefold()
    text = _MARKUP.sub(" ", text)
    text = _SEPARATORS.sub(" ", text)
    return text.strip()


def compact(text: str) -> str:
    """`normalize` without any spaces: the key on which "kv cache" meets "kvcache"."""
    return normalize(text).replace(" ", "")
