"""Probes for task desc69 (issue #12): desc68b's clear-words branch of `fusion.words_agree` with
a guard chosen on dev23, the tuning slice written for the shapes it goes wrong on. A question
written as a statement with a tag ("..., isn't it", "... didn't it", "lol") gets its card or
none, never another entry's; a statement that asks nothing gets its card; the same shapes from a
neighbouring field or everyday life get none. desc69_probes.tsv was written from entry titles and
general knowledge before any search run on the branch (bench/results/semantic.md "desc69"). The
guarded branch (`query.asked_by_tag`, 7410baf3) failed the ship rule on held out and was reverted;
all these probes pass with and without it."""

from __future__ import annotations

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, no_card_but_the_asked, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("desc69_probes.tsv", STILL_FAILING)

test_a_tag_question_gets_its_card_or_none = PROBES.test("tagq", expect=no_card_but_the_asked)
test_a_statement_gets_its_card = PROBES.test("statement", expect=the_asked_card)
test_a_neighbouring_shape_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"tagq": 9, "statement": 4, "none": 8})


def test_a_tag_question_s_clear_words_get_no_card(bundled_index: SearchIndex) -> None:
    """This dev16 row (field 0.429, the meaning's first Benchmark Contamination at 0.633, the
    words 16.6 ahead) was carded Benchmark Contamination by desc68b's clear-words branch, its one
    wrong card on the tuning slices; desc69's tag guard (reverted) kept it off. Overfitting is
    what it asks about; main offers it."""
    result = bundled_index.search(
        "train acc 99%, test acc 60% 😩 my model memorised everything didn't it"
    )
    assert result.entry is None or result.entry.id == "overfitting", result
