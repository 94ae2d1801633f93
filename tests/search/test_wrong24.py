"""Probes for task wrong24: a confident wrong card from a typo that is no typo. A real word one
letter from a name, its first two letters not the name's ("which car model ...": the alias "AR
model"; "my blog loss ...": "log loss"), is a word of its own, not that name mistyped: no card
for that entry. A name mistyped past its first two letters keeps its card. wrong24_probes.tsv was
written from the entry names and general knowledge, not from the entries' text nor the relevance
rows (everyday2's "which car model holds its value better" is the row this comes from)."""

from __future__ import annotations

from bot.glossary.keys import compact
from bot.search import SearchIndex

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

PROBES = ProbeFile("wrong24_probes.tsv")

test_a_real_word_near_a_name_is_no_card_for_it = PROBES.test("word", expect=not_the_written_card)
test_a_name_mistyped_keeps_its_card = PROBES.test("typo", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"word": 5, "typo": 5})


def test_a_near_name_with_other_first_letters_is_no_typo(bundled_index: SearchIndex) -> None:
    """The one home of the rule (`_nearly_named`): every caller, the question's subject too,
    gets no typo where the first two letters differ from every name of the entry."""
    rules = bundled_index.questions
    assert rules._nearly_named(compact("car model")) is None
    assert rules._nearly_named(compact("blog loss")) is None
    found = rules._nearly_named(compact("tokenizaton"))
    assert found is not None
    assert bundled_index.entries[found[0]].id == "tokenization"
