"""Probes for an entry's name misspelt or inflected inside a chat question (task typo68): a
letter changed, doubled, dropped or swapped ("tokin", "atention", "pytroch"), a phone's
autocorrect ("laura" for LoRA), and inflections ("jailbroken", "quants", "tokenized"); and
everyday words one letter from a name ("the llama at the zoo", "tempo of the song"), which must
get no card. typo68_probes.tsv was written from titles.txt and general knowledge before running
anything or reading the search code, the entries or any slice's rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that still fail on this branch: strict expected failures, so one that starts passing
# fails the suite and is moved out of here.
STILL_FAILING = {
    # a letter changed in a short name, or two edits: the typo rules refuse those (a letter
    # changed is as often another word); alone they are offered, not carded
    "hey, what is a tokin in llms?",  # Token offered
    "whats lamma exactly, the meta model?",  # nothing ("lamma" alone: Llama offered)
    # a phone's autocorrect to a person's name: Fine-Tuning carded for "laura fine tuning"
    "hi all \U0001f44b what is laura fine tuning?",
    # inflected: "quants" has no shorthand (forms67); a form and its object ("tokenizing text")
    # is two words no form rule reads (Tokenization offered); "what does it mean when ..." makes
    # the name a clause's setting: QLoRA carded by description; "temp" is the subject, but the
    # meaning leads with GGUF: Temperature offered second
    "what are quants, people keep posting them",
    "what is tokenizing text",
    "what does it mean when a model is quantised to 4 bit",
    "what does temp do in llama.cpp",
}
PROBES = ProbeFile("typo68_probes.tsv", STILL_FAILING)

test_a_misspelt_name_in_a_chat_question_gets_its_card = PROBES.test("typo", expect=the_asked_card)
test_an_inflected_name_in_a_chat_question_gets_its_card = PROBES.test(
    "inflected", expect=the_asked_card
)
test_a_near_word_in_its_everyday_sense_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"typo": 46, "inflected": 14, "offtopic": 18})


# Written after reading the code, not blind: the misspelt name anywhere in the question, not
# only as its subject (`QuestionRules.mistyped_words`), and in an everyday sentence read in the
# sense the name written right would be (`SearchIndex._unless_everyday`; main carded Sandbox).
@pytest.mark.parametrize(
    ("query", "asked"),
    [("why is my latancy so high", "latency"), ("how do i reduce latancy in vllm", "latency")],
)
def test_a_misspelt_name_inside_the_question_gets_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")


@pytest.mark.parametrize("query", ["why is my sandbx so dirty", "why is my sandbax so dirty"])
def test_a_misspelt_name_in_its_everyday_sense_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    no_card(bundled_index.search(query), "", "sandbox")
