"""Probes for task ask76 (issue #12): a chat question about an entry with a near twin, a sibling
close in meaning (validation loss / held-out data, decontamination / benchmark contamination,
multi-head attention / attention head ...), gets the asked entry's card or, no card, the asked
entry as its first offer. ask76_probes.tsv says when and how they were written (before any
change, from entry ids and general knowledge). The change kept is data: asked-as phrasings for
entries with a near twin, saying what sets each apart (bench/results/semantic.md, "ask76")."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile


def the_asked_card_or_first_offer(result: SearchResult, asked: str, written: str) -> None:
    """The asked entry's card, or no card and it offered first: never the twin's card."""
    shown = result.entry.id if result.entry else next((s.id for s in result.suggestions), None)
    assert shown == asked, result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # "transformers" written: its name carded over the mechanism the question describes
    "why do transformers run attention eight or sixteen times side by side and glue the results"
    " together",
    # a symptom then the remedy asked: the problem's entry carded (fix74's remedy rule cards
    # methods only where the meaning clearly leads with one)
    "why does my model score so high when the exam questions were in the web scrape, how do we"
    " scrub them out",
    # the description stage cards Polysemanticity ("individual number inside the network")
    "how is one individual number inside the network different from the whole file of numbers",
    # the prompt's encoder offered first (main carded it: a wrong card withheld, no more)
    "in stable diffusion how do the words of the prompt get into the image network's layers",
}
PROBES = ProbeFile("ask76_probes.tsv", STILL_FAILING)

test_a_twin_question_gets_the_asked_entry = PROBES.test(
    "twin", expect=the_asked_card_or_first_offer
)
test_the_probes_are_the_ones_written = PROBES.counted({"twin": 28})
