"""Probes for task setting64 (issue #12): a general name written only as the setting of a text (the
measure or material of a number, "2B tokens of court filings"; a verb's object in a sentence asking
about something else, "we finetuned the embeddings"; a kind, "a model like llama"; inside pasted
code) gets no card of its own; where the same name is what is asked about ("what is a token", "how
do embeddings capture meaning") its card stays. setting64_probes.tsv was written from entry titles
and general knowledge, before reading the tuning rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import (
    ProbeFile,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("setting64_probes.tsv", STILL_FAILING)

test_a_general_name_as_the_setting_gets_no_card = PROBES.test(
    "measure", "object", "kind", "code", expect=not_the_written_card
)
test_a_general_name_asked_about_keeps_its_card = PROBES.test("subject", expect=the_asked_card)
test_a_measure_asked_about_is_shown = PROBES.test("measured", expect=the_asked_card_or_first_offers)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"measure": 17, "object": 10, "kind": 5, "code": 4, "subject": 17, "measured": 2}
)
