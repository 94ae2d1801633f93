"""Probes for task compound70 (issue #12): "what is <name> <head>" where the head changes what
is asked (a tensor core, a context manager) is no card for the name; where the head only narrows
it (kv cache eviction, the python gil) the name's card stays. compound70_probes.tsv says when and
how it was written."""

from __future__ import annotations

from bot.search import SearchIndex

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the name's card on main (af7b4a99): the head moves the meaning
    "what is a context manager in a with block",
    "what is system prompt leakage",
    "what is a python virtual environment",
    "what is a batch file on windows",
    "what is the token limit of a model",
    # the name offered, not carded, on main (af7b4a99)
    "what is the python gil",
    "what is docker compose",
    "what is a cuda kernel",
    "what is a quantization error",
    "what is the learning rate schedule",
    "what is a vae encoder",
    "what is the epoch count",
    "what is a dataset license",
    "what is a cpu core",
}
PROBES = ProbeFile("compound70_probes.tsv", STILL_FAILING)

test_a_compound_whose_head_changes_the_meaning_is_not_the_modifier_s_card = PROBES.test(
    "headnoun", expect=not_the_written_card
)
test_a_compound_whose_head_narrows_the_name_keeps_its_card = PROBES.test(
    "keep", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted({"headnoun": 20, "keep": 12})


def test_a_name_whose_compound_the_meaning_reads_as_another_entry_is_offered_behind_it(
    bundled_index: SearchIndex,
) -> None:
    """dev24's "what is system prompt caching": Prefix Caching leads System Prompt's cosine by
    more than `COMPOUND_NAME_LEAD` and the glossary does not relate them, and System Prompt's
    text never writes "caching": no System Prompt card, Prefix Caching offered first (failed
    before: System Prompt's card)."""
    result = bundled_index.search("what is system prompt caching")
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == ["prefix-caching", "system-prompt"]
