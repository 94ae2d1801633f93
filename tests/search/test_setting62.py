"""Probes for task setting62 (issue #12): a general name written as the setting of what is asked
("how many tokens ...", "on a gpu", "in pytorch", "on the hugging face hub"), not its subject,
gets no card of its own; where the general name is what is asked about ("what is a token", "is
llama open source") its card stays. setting62_probes.tsv was written from entry titles and general
knowledge, before reading wrong61's rows, the entries' text or the question code."""

from __future__ import annotations

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("setting62_probes.tsv", STILL_FAILING)

test_a_general_name_as_the_setting_gets_no_card = PROBES.test(
    "setting", expect=not_the_written_card
)
test_a_general_name_asked_about_keeps_its_card = PROBES.test("subject", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 39, "subject": 20})
