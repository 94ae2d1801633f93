"""Probes for task review71 (issue #12): react70's other-field words (a language, a cloud, a phone
system, a database, a web framework) written inside a real ML question about an entry must not
withhold that entry's card. review71_probes.tsv says when and how they were written."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # not react70's rule (the same without it): a name written inside a compound the question
    # builds ("rust tokenizer"), a setting of two phones or clouds, a kind of search the glossary
    # files under others: offers, or nothing, where the entry's card was asked for
    "rust tokenizer vs python tokenizer speed",
    "quantization for llms on android vs ios phones",
    "fine-tuning on aws vs azure",
    "embeddings vs sql full text search",
}
PROBES = ProbeFile("review71_probes.tsv", STILL_FAILING)

test_an_ml_question_writing_another_fields_word_keeps_the_entrys_card = PROBES.test(
    "keep", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted({"keep": 18})
