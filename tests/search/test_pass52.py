"""Probes for task pass52: a chat-style question that writes a tool, model or library as its
setting ("running llama locally, how do i stop it making stuff up") and asks about another entry
(issue #12, "never a confident wrong card"). Never the setting's card; the asked entry as the
card or among the first three offers. A question asking about the name it writes keeps its
card; an everyday question with a field word gets none. pass52_probes.tsv was written from the
entry titles and general knowledge before reading dev18's rows, the entries' text or the search
code."""

from __future__ import annotations

from .probe_files import (
    ProbeFile,
    no_card,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)

NOT_WRITTEN_FAILING: set[str] = set()
SHOWN_FAILING: set[str] = set()
NAMED_FAILING: set[str] = set()
OFFTOPIC_FAILING: set[str] = set()

NOT_WRITTEN = ProbeFile("pass52_probes.tsv", NOT_WRITTEN_FAILING)
SHOWN = ProbeFile("pass52_probes.tsv", SHOWN_FAILING)
NAMED = ProbeFile("pass52_probes.tsv", NAMED_FAILING)
OFFTOPIC = ProbeFile("pass52_probes.tsv", OFFTOPIC_FAILING)

test_a_setting_is_no_card = NOT_WRITTEN.test("setting", expect=not_the_written_card)
test_a_setting_shows_the_asked = SHOWN.test("setting", expect=the_asked_card_or_first_offers)
test_a_name_asked_keeps_its_card = NAMED.test("named", expect=the_asked_card)
test_an_everyday_question_is_no_card = OFFTOPIC.test("offtopic", expect=no_card)
test_the_probe_file_is_whole = NOT_WRITTEN.counted({"setting": 32, "named": 12, "offtopic": 8})
