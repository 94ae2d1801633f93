"""Probes for task none40: on-topic queries that got nothing at all ("no entry") and what they
could be offered (issue #12). "offer": a loosely worded description of an entry without its name:
its card, or no card and it among the first three offers. "nothing": a near-field off-topic query
(cloud, web, crypto, data engineering, everyday chat, AI-ish words): neither card nor offer, since
an offer for nonsense is a worse answer than an honest "no entry". none40_probes.tsv was written
from entry titles and general knowledge, not from the entries' text nor any slice's rows."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile, the_asked_card_or_first_offers

# Probes that fail on this branch and on main f3c39c6 alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here. Main offers these AI-ish or
# crypto questions entries at cosine 0.47-0.55 (Alignment, AI Agents, Seed): the meaning's
# floor for an offer (`ranking.SUGGEST_SCORE`) is under them.
STILL_FAILING = {
    "i lost the seed phrase for my crypto wallet what now",
    "can ai write my best man speech for me",
    "will ai take my job as an accountant",
}
PROBES = ProbeFile("none40_probes.tsv", STILL_FAILING)


def neither_card_nor_offer(result: SearchResult, asked: str, written: str) -> None:
    assert result.entry is None, result
    assert not result.suggestions, result


test_a_loose_description_is_its_card_or_offered = PROBES.test(
    "offer", expect=the_asked_card_or_first_offers
)
test_a_near_field_query_gets_neither_card_nor_offer = PROBES.test(
    "nothing", expect=neither_card_nor_offer
)
test_the_probes_are_the_ones_written = PROBES.counted({"offer": 18, "nothing": 11})
