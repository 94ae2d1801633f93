"""Probes for a name written only as the question's setting (task wrong17, issue #12): "how does
vllm implement continuous batching", "what is the scheduler in diffusers" ask about the other
name; "how does vllm work" asks about vLLM. wrong17_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries or the relevance rows."""

from __future__ import annotations

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card_but_the_asked, the_asked_card

# Probes that fail on this branch, all of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here. With kind19's kinds, "how
# does Y do X" and "X in/on Y" with Y a tool or model ask X: all pass.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("wrong17_probes.tsv", STILL_FAILING)

test_the_setting_written_gets_no_card = PROBES.test("setting", expect=no_card_but_the_asked)
test_the_name_asked_about_gets_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 20, "own": 7})


def test_a_place_after_a_verb_keeps_its_card(bundled_index: SearchIndex) -> None:
    # "in a sandbox" says where the agents run, and the sandbox is what is asked about: a
    # rule for "X in/on Y" must read a thing's place, not a verb's
    result = bundled_index.search("why should coding agents run in a sandbox")
    assert result.entry is not None, result
    assert result.entry.id == "sandbox"
