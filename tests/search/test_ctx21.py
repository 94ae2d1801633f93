"""Probes for task ctx21: a name written as context or setting is not the question's subject.
ctx21_probes.tsv was written from the entry titles and general knowledge before reading the
search code, the entries it targets or dev10's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("ctx21_probes.tsv", STILL_FAILING)

test_a_context_name_is_not_the_card = PROBES.test("context", expect=the_asked_card_or_first_offers)
test_a_setting_name_is_not_the_card = PROBES.test("setting", expect=the_asked_card_or_first_offers)
test_a_name_written_as_the_subject_gets_its_card = PROBES.test("subject", expect=the_asked_card)
test_everyday_context_and_question_get_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"context": 12, "setting": 10, "subject": 10, "none": 4}
)
