"""The one rule for names moderators type (aliases and server terms)."""

from __future__ import annotations

import pytest

from bot.glossary.name_rules import name_refusal


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
