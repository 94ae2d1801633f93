"""Characters that show nothing: one definition (`bot.glossary.invisible`) for search keys, the
name rule and the text "Explain terms" reads, and each reader's own treatment of them."""

from __future__ import annotations

import sys
import unicodedata
from types import SimpleNamespace
from typing import Any

import pytest

from bot.cards.quote import quote
from bot.discord_app.cogs.explain import readable_text
from bot.glossary.invisible import INVISIBLE_CHARS, JOINERS, drop_invisible
from bot.glossary.keys import normalize
from bot.glossary.name_rules import name_refusal

SOFT_HYPHEN, ZWSP, ZWJ, BOM = "\u00ad", "\u200b", "\u200d", "\ufeff"
# Right-to-left mark, Arabic letter mark, right-to-left override, right-to-left isolate.
RTL_MARKS = ("\u200f", "\u061c", "\u202e", "\u2067")
WOMAN_TECHNOLOGIST = "\U0001f469\u200d\U0001f4bb"
PERSIAN_HALF_SPACE = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # "I want"
HIDDEN_IN_WORDS = (SOFT_HYPHEN, ZWSP, BOM, "\u2060", *RTL_MARKS)


def test_the_list_is_this_pythons_format_characters_and_variation_selectors() -> None:
    every_format = {
        chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"
    }
    assert every_format <= INVISIBLE_CHARS
    for ch in INVISIBLE_CHARS - every_format:  # unassigned here: newer than this Python's data
        assert "SELECTOR" in unicodedata.name(ch, "") or unicodedata.category(ch) == "Cn", hex(
            ord(ch)
        )


def _explained(text: str) -> str:
    message: Any = SimpleNamespace(content=text, embeds=[], poll=None, message_snapshots=[])
    return readable_text(message)


@pytest.mark.parametrize("hidden", HIDDEN_IN_WORDS, ids=lambda ch: f"U+{ord(ch):04X}")
def test_a_character_that_shows_nothing_inside_a_word(hidden: str) -> None:
    """Search and Explain terms read the word it hides in; a name may not contain it."""
    word = f"trans{hidden}former"
    assert normalize(word) == "transformer"
    assert _explained(f"a {word} here") == "a transformer here"
    assert name_refusal(word) == "A name cannot contain control or invisible characters."


def test_every_invisible_character_is_dropped_by_search_and_explain_and_refused_in_names() -> None:
    for ch in INVISIBLE_CHARS:
        assert normalize(f"zo{ch}rb") == "zorb", hex(ord(ch))
        assert _explained(f"zo{ch}rb") == ("zorb" if ch not in JOINERS else f"zo{ch}rb")
        assert name_refusal(f"zo{ch}rb") is not None, hex(ord(ch))


def test_an_emoji_joined_with_zwj() -> None:
    """A name may be an emoji sequence; Explain terms keeps it whole; search keys drop the
    joiner (the emoji either side are what a search matches)."""
    assert name_refusal(f"{WOMAN_TECHNOLOGIST} blix") is None
    assert name_refusal("\u2764\ufe0f zorb") is None  # a variation selector after an emoji
    assert _explained(f"the {WOMAN_TECHNOLOGIST} team") == f"the {WOMAN_TECHNOLOGIST} team"
    assert normalize(WOMAN_TECHNOLOGIST) == "\U0001f469\U0001f4bb"


def test_drop_invisible_keeps_what_it_is_asked_to() -> None:
    text = f"{BOM}kv{SOFT_HYPHEN} ca{ZWSP}che {WOMAN_TECHNOLOGIST}\u200f"
    assert drop_invisible(text) == "kv cache \U0001f469\U0001f4bb"
    assert drop_invisible(text, keep=ZWJ) == f"kv cache {WOMAN_TECHNOLOGIST}"
    assert drop_invisible("plain ascii") == "plain ascii"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("❤\ufe0f rag", "❤\ufe0f rag"),  # the emoji look of ❤ kept: it is what was typed
        ("☎\ufe0e phone", "☎\ufe0e phone"),  # and the text look
        ("\u8fba\U000e0100 kanji", "\u8fba\U000e0100 kanji"),  # an ideographic variant
        (f"kv{ZWSP}{SOFT_HYPHEN}cache{BOM}", "kvcache"),
        (f"{RTL_MARKS[2]}evil{RTL_MARKS[3]}", "evil"),  # no direction changed
        (WOMAN_TECHNOLOGIST, WOMAN_TECHNOLOGIST),  # a joiner gluing two emoji into one: kept
        (f"zo{ZWJ}rb {ZWJ}\U0001f4bb", "zorb \U0001f4bb"),  # a joiner elsewhere shows nothing
        (PERSIAN_HALF_SPACE, PERSIAN_HALF_SPACE),  # a non-joiner inside a Persian word: kept
        ("zo\u200crb", "zorb"),  # inside a Latin word it hides text
        ("a\tb\nc\u2028d\x00e\x1b", "a b c de"),  # one line; controls gone
        ("\ue000private\U000e0041", "private"),  # private use, tags
        ("see https://evil.example now", "see https[:]//evil[.]example now"),
    ],
)
def test_a_quote_shows_what_was_typed_without_what_shows_nothing(typed: str, shown: str) -> None:
    """`quote` (user text shown back) drops what `invisible` lists, but the variation
    selectors and the joiners inside emoji and words of scripts written with them: repeated
    back, an emoji keeps the look its writer chose, a word its spelling."""
    assert quote(typed, 100) == shown
