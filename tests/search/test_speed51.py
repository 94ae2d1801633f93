"""speed51: the ASCII fast paths of the tokenizer's basic words and of the query's symbol
blanking give what the character-at-a-time paths give (bench/results/semantic.md, "speed51")."""

from __future__ import annotations

import random
import unicodedata

import pytest

from bot.search.query import _SYMBOLS, _without_symbols
from bot.search.semantic.wordpiece import _unicode_words, basic_words

TEXTS = [
    "",
    " ",
    "what is RAG?",
    "pre-norm vs post-norm layernorm, which is better",
    'i need `{"name": str}` back ^^ (json) ... ok?!',
    "tabs\tand\nnewlines\r\nand\x0bvertical\x0cfeed\x1fseparators\x7fdel\x00nul",
    "a_b c~d e|f g+h i=j k<l>m 3.2, -1.0, 0.5 $5 100% #tag @user [x](y) {z}",
    "   leading and trailing   ",
    "CamelCase GPT-4o and o1-preview's answers",
]


def _ascii_texts() -> list[str]:
    rng = random.Random(51)
    alphabet = [chr(i) for i in range(128)]
    common = "abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789 .,;:!?-'\"`^()[]{}\t\n"
    texts = list(TEXTS)
    for _ in range(2000):
        pool = alphabet if rng.random() < 0.5 else common
        texts.append("".join(rng.choice(pool) for _ in range(rng.randint(0, 60))))
    return texts


def _old_without_symbols(text: str) -> str:
    kept = "".join(" " if unicodedata.category(c) in _SYMBOLS else c for c in text)
    return " ".join(kept.split())


@pytest.mark.parametrize("texts", [_ascii_texts()], ids=["ascii"])
def test_ascii_basic_words_as_the_unicode_path(texts: list[str]) -> None:
    for text in texts:
        assert text.isascii()
        assert basic_words(text) == _unicode_words(text), repr(text)


@pytest.mark.parametrize("texts", [_ascii_texts()], ids=["ascii"])
def test_ascii_symbols_blanked_as_the_category_path(texts: list[str]) -> None:
    for text in texts:
        assert _without_symbols(text) == _old_without_symbols(text), repr(text)


@pytest.mark.parametrize(
    "text",
    ["explain rag 🙏", "café crème ❤️ model", "什么是 rag", "naïve bayes ^_^", "ｆｕｌｌｗｉｄｔｈ"],
)
def test_other_texts_keep_the_character_path(text: str) -> None:
    assert basic_words(text) == _unicode_words(text)
    assert _without_symbols(text) == _old_without_symbols(text)


def test_marks_are_words_of_their_own() -> None:
    assert basic_words("Pre-Norm, vs post^norm `x`") == [
        "pre", "-", "norm", ",", "vs", "post", "^", "norm", "`", "x", "`",
    ]  # fmt: skip
    assert _without_symbols("post^norm `x`") == "post norm x"
