"""Probes for task asked46: a short chat question in the voice members ask ("why does my ...",
"how do i stop ...") about one entry, which names it not. Its card is the asked entry's
(issue #12: questions are answered "Did you mean" with the right entry first but under the bar).
asked46_probes.tsv was written from entry titles and general knowledge, not from the entries'
text, their phrasings nor any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# Main b619273 failed three: RAG and Mixture of Experts are offered first with no card, Tokenizer
# Fertility is offered first under a Token card. asked46's question-voice phrasings (measured,
# reverted: semantic.md) carded RAG's; the other two stayed.
STILL_FAILING = {
    "why does my japanese text use way more tokens than the same thing in english?",
    ("how does a model have a huge parameter count but only use a slice of it for each token?"),
}
PROBES = ProbeFile("asked46_probes.tsv", STILL_FAILING)

test_the_asked_entry_is_carded = PROBES.test("one", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"one": 26})
