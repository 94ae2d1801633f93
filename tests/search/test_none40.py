"""Probes for task none40: on-topic queries that got nothing at all ("no entry") and what they
could be offered (issue #12). "offer": a loosely worded description of an entry without its name:
its card, or no card and it among the first three offers. "nothing": a near-field off-topic query
(cloud, web, crypto, data engineering, everyday chat, AI-ish words): neither card nor offer, since
an offer for nonsense is a worse answer than an honest "no entry". none40_probes.tsv was written
from entry titles and general knowledge, not from the entries' text nor any slice's rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.relevance import Case, evaluate

from .probe_files import ProbeFile, neither_card_nor_offer, the_asked_card_or_first_offers

# Probes that fail on this branch and on main f3c39c6 alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here. Main offers these AI-ish
# questions entries at cosine 0.55 (Alignment, AI Agents): the meaning's floor for an offer
# (`ranking.SUGGEST_SCORE`) is under them, and they are too near an entry for offtopic41's
# "none" (`fusion.OFFER_COSINE`; the seed phrase question, Seed at 0.47, gets "none" there).
STILL_FAILING = {
    "can ai write my best man speech for me",
    "will ai take my job as an accountant",
}
PROBES = ProbeFile("none40_probes.tsv", STILL_FAILING)


test_a_loose_description_is_its_card_or_offered = PROBES.test(
    "offer", expect=the_asked_card_or_first_offers
)
test_a_near_field_query_gets_neither_card_nor_offer = PROBES.test(
    "nothing", expect=neither_card_nor_offer
)
test_the_probes_are_the_ones_written = PROBES.counted({"offer": 18, "nothing": 11})


# Written after the tuning rows and the code were read (paraphrases of their kind, copied from no
# slice). A spec question whose words describe Liveness strongly, which the meaning ranks first
# at 0.39 only (under the offer floor, `ranking.SUGGEST_SCORE`): main f3c39c6 answered nothing;
# `_described_nothing` offers Liveness first.
def test_a_strongly_described_entry_the_meaning_ranks_is_offered(
    bundled_index: SearchIndex,
) -> None:
    result = bundled_index.search(
        "my TLA+ assignment has a spec line 'every request eventually gets a reply'. "
        "what kind of property is that one"
    )
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:1]] == ["liveness"], result


# Off-topic sentences whose words describe an entry as strongly ("hangs forever": Liveness) and
# that the meaning ranks among its first too: the text as a whole is far from the field
# (`NOTHING_FIELD_COSINE`), so "no entry" stays.
@pytest.mark.parametrize(
    "query", ["npm install just hangs forever", "yarn install hangs forever on ci"]
)
def test_an_off_topic_sentence_sharing_definition_words_gets_nothing(
    bundled_index: SearchIndex, query: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert not result.suggestions, result


# The relevance report counts off-topic rows given choices though no card (its JSON's
# `offtopic_offered`): an offer for nonsense is a worse answer than "no entry".
def test_the_report_counts_off_topic_rows_offered(bundled_index: SearchIndex) -> None:
    offered = "will ai take my job as an accountant"  # main offers AI Agents (a strict xfail above)
    cases = [
        Case("offtopic", offered, None),
        Case("offtopic", "npm install just hangs forever", None),
    ]
    tally = evaluate(bundled_index, cases).total(off_topic=True)
    assert (tally.total, tally.offered, tally.wrong) == (2, 1, 0)
