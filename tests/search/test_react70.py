"""Probes for task react70 (issue #12): a comparison from another field using an entry's word as
a side ("token vs coin in crypto", "neuron vs glial cell") is about that field, so no card; an
entry beside an AI thing the glossary does not know ("adam vs lion optimizer") keeps its card; a
comparison of two entries cards the first and offers the second. react70_probes.tsv says when and
how it was written."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card
from .test_compare25 import first_carded_second_offered

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # everyday words no list names ("glial cell", "handrails", "playground", "roadblock",
    # "longshoreman"): the encoder cannot tell them from the field's unknown jargon ("mamba",
    # "alibi"), and `_compared_off_field` offers only beside other_fields.txt's words
    "neuron vs glial cell",
    "docker vs longshoreman job",
    # (handrails, playground, roadblock: offered since offfield76's other senses)
}
PROBES = ProbeFile("react70_probes.tsv", STILL_FAILING)

test_another_fields_comparison_using_an_entrys_word_is_no_card = PROBES.test(
    "offfield", expect=no_card
)
test_an_entry_beside_an_ai_thing_the_glossary_lacks_keeps_its_card = PROBES.test(
    "notentry", expect=the_asked_card
)
test_a_comparison_of_two_entries_cards_the_first_and_offers_the_second = PROBES.test(
    "ontopic", expect=first_carded_second_offered
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"offfield": 20, "notentry": 14, "ontopic": 8}
)


@pytest.mark.parametrize(
    ("query", "card", "offered"),
    [
        # beside another field's product the plain word is offered first, not dropped: the
        # member may have meant the entry
        ("python vs rust for a small command line tool", None, "python"),
        ("epoch vs era in geology", None, "epoch"),
        # written as the glossary cases it, the name is the field's: its card stays
        ("ReAct vs vue", "reasoning-and-acting", None),
        # what it is for, in the field's words, makes it the field's comparison
        ("python vs rust for inference servers", "python", None),
        # the other side found: left to the comparison's own rules
        ("python vs cuda in javascript", "python", None),
    ],
)
def test_the_first_side_of_another_fields_comparison_is_offered(
    bundled_index: SearchIndex, query: str, card: str | None, offered: str | None
) -> None:
    result = bundled_index.search(query)
    assert result.entry_id == card, result
    if offered is not None:
        assert [s.id for s in result.suggestions[:1]] == [offered], result
