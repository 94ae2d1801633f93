"""Probes for task wrong24: confident wrong cards (issue #12). A real word one letter from a name,
its first two letters not the name's ("which car model ...": the alias "AR model"; "my blog
loss ...": "log loss"), is a word of its own, not that name mistyped: no card for that entry; a
name mistyped past its first two letters keeps its card. A told scene that starts with a name,
then a question asking for a thing by its kind ("..., which setting controls ..."): the name is
the setting, no card for it; a name alone as the topic keeps its card. wrong24_probes.tsv was
written from the entry names and general knowledge, not from the entries' text nor the relevance
rows (everyday2's "which car model holds its value better" and dev10's and dev11's scenes are
the rows this comes from). The second rule was measured and not kept: its probes stay strict
xfails."""

from __future__ import annotations

from bot.glossary.keys import compact
from bot.search import SearchIndex

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # the scene's first name read as the subject (`QuestionRules.read`'s last reading, of the
    # whole text): a rule that reads it as the setting where the question asks for a thing by
    # its kind was measured and not kept (wrong24 in bench/results/semantic.md)
    # the name written outright, not the subject rule, makes this card (`_names_in`); the
    # batch-jobs and postgres probes pass with wrong49's `_asked_name_offered` (offered, no card)
    "deepseek trains its reasoning models with grouped answers scored against each other. "
    "which algorithm is that?",
}
PROBES = ProbeFile("wrong24_probes.tsv", STILL_FAILING)

test_a_real_word_near_a_name_is_no_card_for_it = PROBES.test("word", expect=not_the_written_card)
test_a_name_mistyped_keeps_its_card = PROBES.test("typo", expect=the_asked_card)
test_a_scene_name_before_a_kind_asked_is_no_card = PROBES.test(
    "setting", expect=not_the_written_card
)
test_a_topic_keeps_its_card = PROBES.test("topic", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"word": 5, "typo": 5, "setting": 5, "topic": 5}
)


def test_a_near_name_with_other_first_letters_is_no_typo(bundled_index: SearchIndex) -> None:
    """The one home of the rule (`_nearly_named`): every caller, the question's subject too,
    gets no typo where the first two letters differ from every name of the entry."""
    rules = bundled_index.questions
    assert rules._nearly_named(compact("car model")) is None
    assert rules._nearly_named(compact("blog loss")) is None
    found = rules._nearly_named(compact("tokenizaton"))
    assert found is not None
    assert bundled_index.entries[found[0]].id == "tokenization"
