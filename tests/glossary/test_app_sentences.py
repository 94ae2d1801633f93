"""A source's app_sentences: the sentences any pattern finds move to notes, whatever the pattern.

The merger looks for the patterns that cannot see past a sentence in the whole text first; the
outcome must be the plain rule's: a sentence moves when one of the patterns matches it alone."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.glossary.merge import AppSentences, _split_app_sentences

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")  # as the merger cuts sentences

PATTERNS = [
    r"\bLLM Studio\b",
    r"\bapp\b",
    r"(?i)\b(this|the) app\b",
    r"^The\b",  # anchored: the start of a sentence, not of the text
    r"app\.$",
    r"\Aapp",
    r"studio\Z",
    r"(?<=\. )App",  # sees past the sentence in the text, never inside one
    r"App(?= \w)",
    r"(?<!x)app\b",
    r"(a)p\1",  # a group reference
    r"(?P<w>pp)",
    r"\Bpp\b",
    r"[^ ]app",
    r"(?i:STUDIO)",
    r"(?i)studio\b",  # flags of its own: one pass with the other (?i) ones
    r"(?x) app # a comment",  # verbose: a comment would swallow the rest of an alternation
    r"(?m)^app",
    r"(?s)app.LLM",
    r"x*",  # matches every sentence (empty)
    r"\s",
    r"\.\s",  # spans two sentences in the text, never inside one
]

WORDS = ["app", "App", "the", "The", "studio", "LLM", "Studio", "xapp", "pp", "apap", "(app)"]
SEPARATORS = [" ", ". ", "! ", "? ", ".\n", ". \n\n", "\n\n", "\n\n\n", ".  ", " \t"]


def by_the_rule(text: str, patterns: list[re.Pattern[str]]) -> tuple[str, list[str]]:
    """Paragraph by paragraph, sentence by sentence: every pattern on every sentence."""
    if not patterns:
        return text, []
    kept: list[str] = []
    moved: list[str] = []
    for sentences in (SENTENCE_END.split(part) for part in text.split("\n\n")):
        about = {s for s in sentences if any(p.search(s) for p in patterns)}
        moved += [s for s in sentences if s in about]
        kept += filter(None, [" ".join(s for s in sentences if s not in about)])
    return "\n\n".join(kept), moved


texts = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=12).map(
    lambda parts: "".join(w + s for w, s in parts)
)


@settings(max_examples=400, deadline=None)
@given(texts, st.sets(st.sampled_from(PATTERNS), max_size=5))
def test_sentences_move_as_the_plain_rule_says(text: str, chosen: set[str]) -> None:
    patterns = [re.compile(p) for p in sorted(chosen)]
    assert _split_app_sentences(text, AppSentences(patterns)) == by_the_rule(text, patterns)


def test_every_pattern_alone_and_all_together() -> None:
    text = "The app is here. LLM Studio runs it.\n\nIn this app.  (app) too! Next studio"
    for chosen in [[p] for p in PATTERNS] + [PATTERNS]:
        patterns = [re.compile(p) for p in chosen]
        assert _split_app_sentences(text, AppSentences(patterns)) == by_the_rule(text, patterns)


def test_only_the_patterns_that_cannot_see_past_a_sentence_are_combined() -> None:
    rules = AppSentences([re.compile(p) for p in PATTERNS])
    passes = {
        tuple(sorted(p.pattern for p in members)) for _, members in rules.passes
    }  # one pass per set of flags, a verbose pattern alone
    assert passes == {
        tuple(sorted([r"\bLLM Studio\b", r"\bapp\b", r"\Bpp\b", r"x*", r"\s", r"\.\s"])),
        tuple(sorted([r"(?i)\b(this|the) app\b", r"(?i)studio\b"])),
        (r"(?s)app.LLM",),
        (r"(?x) app # a comment",),
    }


def test_a_pass_brings_in_only_its_own_patterns() -> None:
    case_blind = [re.compile(r"(?i)\b(this|the) app\b"), re.compile(r"(?i)studio\b")]
    rules = AppSentences([re.compile(r"\bLLM Studio\b"), *case_blind])
    assert rules.that_may_match("Nothing here. Not a thing.") == []
    assert rules.that_may_match("Nothing here. A STUDIO.") == case_blind
    # Flags given when compiling, not written in the pattern, are the pass's flags too.
    given = AppSentences([re.compile("studio", re.IGNORECASE), re.compile("(?i)llm")])
    assert given.that_may_match("A STUDIO.") == given.patterns
