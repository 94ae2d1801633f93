"""The one rule for names moderators type (aliases and server terms)."""

from __future__ import annotations

import unicodedata

import pytest

from bot.glossary.name_rules import name_refusal, text_refusal


@pytest.mark.parametrize(
    "name",
    ["KV cache", "C++", "A/B testing", "naïve Bayes", "Node.js", "e-mail", "Ω-notation", "日本語"],
)
def test_ordinary_names_pass(name: str) -> None:
    assert name_refusal(name) is None


def test_the_subject_leads_the_sentence() -> None:
    assert name_refusal("@here now", "An alias") == "An alias cannot contain mentions."
    assert name_refusal("@here now") == "A name cannot contain mentions."


def test_lookalikes_are_folded_before_checking() -> None:
    assert name_refusal("\uff20everyone") == "A name cannot contain mentions."  # fullwidth @
    assert name_refusal("ｈｔｔｐｓ://x.y") == "A name cannot contain links."
    assert name_refusal("\ufe64t:1700000000\ufe65") is not None  # small < and >


# What the rule says it refuses: format, private-use, unassigned, surrogate, control and
# line/paragraph separator characters, and the blank-looking letters it lists.
HIDING_CATEGORIES = {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"}
BLANK_LOOKING = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0, 0x1D159}
BLANK_LOOKING |= {*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}


def test_every_code_point_between_two_letters_is_judged_by_the_stated_rule() -> None:
    """Prose with each character of Unicode between two Latin letters (where no emoji and no
    joined script can claim it) is refused exactly when its NFKC form holds a hiding one."""
    wrong = []
    # Planes 4 to 13 are unassigned, 15 and 16 private use: a sample of each will do.
    unassigned_or_private = [*range(0x40000, 0xE0000, 251), *range(0xF0000, 0x110000, 251)]
    for code in [*range(0x40000), *range(0xE0000, 0xF0000), *unassigned_or_private]:
        if chr(code) in "\n\t":  # line breaks and tabs are prose's own
            continue
        folded = unicodedata.normalize("NFKC", f"x{chr(code)}y")
        hides = any(
            unicodedata.category(ch) in HIDING_CATEGORIES or ord(ch) in BLANK_LOOKING
            for ch in folded
        )
        refused = "invisible" in (text_refusal(f"x{chr(code)}y") or "")
        if refused != hides:
            wrong.append(f"U+{code:04X}")
    assert wrong == []


def test_every_look_alike_and_hiding_character_is_beyond_ascii() -> None:
    """ASCII text skips the look-alike and hiding-character scans (the common case in `check`): that holds
    only while none of them is ASCII."""
    from bot.glossary import name_rules

    assert not any(ch.isascii() for ch in name_rules._LOOK_ALIKES | name_rules._HIDING)
