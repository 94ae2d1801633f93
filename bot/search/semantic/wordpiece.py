"""BERT's uncased WordPiece tokenizer in plain Python (what `tokenizers` does for MiniLM).

Basic tokenisation (clean, split CJK characters, lower-case, strip accents, split punctuation),
then greedy longest-match-first word pieces from the model's vocabulary. Queries are a few words,
entries are embedded once and cached, so a pure-Python tokenizer costs nothing that matters and
saves shipping a native library.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

MAX_WORD_CHARS = 100  # longer "words" are [UNK], as in BERT


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2A6DF
        or 0x2A700 <= code <= 0x2B81F
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


def basic_words(text: str) -> list[str]:
    """Lower-cased, accent-free words and single punctuation marks."""
    if text.isascii():  # most texts: the same words without a category look-up a character
        return [
            p for word in text.translate(_ASCII_CLEAN).lower().split() for p in _ASCII_SPLIT(word)
        ]
    return _unicode_words(text)


def _unicode_words(text: str) -> list[str]:
    """`basic_words` for any text, a character at a time."""
    chars: list[str] = []
    for char in text:
        code = ord(char)
        if code == 0 or code == 0xFFFD:
            continue
        category = unicodedata.category(char)
        if char in "\t\n\r" or category == "Zs":
            chars.append(" ")
        elif category.startswith("C"):
            continue
        elif _is_cjk(code):
            chars.append(f" {char} ")
        else:
            chars.append(char)
    words: list[str] = []
    for word in "".join(chars).lower().split():
        word = "".join(
            c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn"
        )
        current: list[str] = []
        for char in word:
            if _is_punctuation(char):
                if current:
                    words.append("".join(current))
                    current = []
                words.append(char)
            else:
                current.append(char)
        if current:
            words.append("".join(current))
    return words


# What `basic_words` does to ASCII, as tables (speed51): tab, newline and return are spaces, other
# control characters go (accents and CJK are not ASCII); a punctuation mark is a word of its own
_ASCII_CLEAN = {
    i: " " if chr(i) in "\t\n\r" else None
    for i in range(128)
    if unicodedata.category(chr(i)).startswith("C")
}
_ASCII_MARKS = re.escape("".join(chr(i) for i in range(128) if _is_punctuation(chr(i))))
_ASCII_SPLIT = re.compile(f"[{_ASCII_MARKS}]|[^{_ASCII_MARKS}]+").findall


class WordPiece:
    def __init__(self, vocabulary: Sequence[str]) -> None:
        self.ids = {token: i for i, token in enumerate(vocabulary)}
        self.unknown = self.ids["[UNK]"]
        self.cls = self.ids["[CLS]"]
        self.sep = self.ids["[SEP]"]
        self._word_ids = lru_cache(maxsize=65536)(self._pieces)

    def _pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > MAX_WORD_CHARS:
            return (self.unknown,)
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.ids.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self.unknown,)
            pieces.append(found)
            start = end
        return tuple(pieces)

    def encode(self, text: str, max_tokens: int) -> list[int]:
        """[CLS] pieces [SEP], cut to `max_tokens` in all."""
        ids = [self.cls]
        for word in basic_words(text):
            ids.extend(self._word_ids(word))
            if len(ids) >= max_tokens - 1:
                break
        return [*ids[: max_tokens - 1], self.sep]
