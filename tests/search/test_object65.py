"""Probes for task object65 (issue #12): a general entry name that is only a verb's object or a
tool named in passing ("this lablup thing to book gpus", "when meta releases llama ...", "we serve
llama 3 with vllm ...") while the text asks about something else gets no card of its own; where the
same frame asks about the name ("which gpu should i get", "what is llama") its card stays.
object65_probes.tsv was written from entry titles and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch and on main 7e1793a5: strict expected failures, so one that
# starts passing fails the suite and is moved out of here. "meta releases llama" has no speaker
# before its verb and "we load the checkpoint" a determiner between: both outside
# `spoken_object`'s frame. Backend.AI asked by what it does ("the lablup platform for booking
# gpus") is offered, not carded.
STILL_FAILING: set[str] = {
    "when meta releases llama weights, what license do people mean by open weights",
    "after we load the checkpoint the model repeats the same sentence over and over, which"
    " decoding setting stops that",
    "what is the lablup platform for booking gpus called",
}
PROBES = ProbeFile("object65_probes.tsv", STILL_FAILING)

test_a_general_name_in_passing_gets_no_card = PROBES.test("passing", expect=not_the_written_card)
test_a_general_name_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"passing": 21, "asked": 14})
