"""Probes for task question49: chat-style questions as people type them in a Discord (issue #12,
questions >= 95% cards): lower case, no "?", "anyone know ...", "is X basically Y", "why does my
... keep ...". question49_probes.tsv was written from the entry titles and general knowledge,
before reading the entries' text, the search code or any slice's rows: questions writing the
entry's name (its card), questions about an entry without its name (its card), and the same
shapes from neighbouring fields (no card)."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch (and on main before it): strict expected failures, so one
# that starts passing fails the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("question49_probes.tsv", STILL_FAILING)

test_a_named_chat_question_is_its_card = PROBES.test("named", expect=the_asked_card)
test_an_unnamed_chat_question_is_its_card = PROBES.test("unnamed", expect=the_asked_card)
test_the_same_shapes_off_the_glossary_are_no_card = PROBES.test("off", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"named": 23, "unnamed": 14, "off": 13})
