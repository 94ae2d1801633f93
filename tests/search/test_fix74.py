"""Task fix74 (issue #12, a question describing a symptom and asking for the remedy): the probes
of fix74_probes.tsv, written from entry ids and general knowledge before reading the code, the
entries or any slice's rows; and the rule built for the cause found in the tuning slices: a
question asking for a remedy whose meaning clearly leads with an offered entry gets its card
(`SearchIndex._remedy_carded`, `query.asks_remedy`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.search import SearchIndex, SearchResult
from bot.search.query import asks_remedy, normalize
from bot.search.ranking import REMEDY_COSINE, REMEDY_LEAD

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. By what withholds or moves the card:
STILL_FAILING: set[str] = {
    # the meaning leads with the symptom or its neighbour (Guardrails, Hallucination), the
    # remedy not among its first (RAG, Reranking, Instruction Hierarchy)
    "the chatbot keeps making up facts about our product, how do i stop it",
    "users keep getting the bot to ignore my instructions, how do i make it put the system prompt"
    " above what users type",
    "my rag pipeline returns loosely related chunks at the top, how can i get the best ones first",
    "the model doesn't know about anything after its training cutoff, how do i give it up to date"
    " info",
    # a goal asked by "what do people do instead" / "is there a way", which the rule leaves
    # alone (on tuning such goals card a neighbour as often as the remedy): offers
    "full fine-tuning doesn't fit on my gpu, what do people do instead",
    "we worry the model memorises personal data from training, how can we train with a privacy"
    " guarantee",
    "the model can't do arithmetic reliably, how can i let it use a calculator",
    "ppo needs a separate value model and it eats memory, is there a way to skip the critic",
    # the resource carded (CPU at 0.79, llama.cpp 0.74 second)
    "i don't have a gpu, is there a way to run a model on my cpu",
    # the neighbour the meaning puts first carded (Fully Sharded Data Parallel)
    "the model is too big for one gpu's memory, how do i spread it across several",
    # the remedy first and clearly ahead, but a concept (Checkpoint): the rule cards methods only
    # (a concept carded, test_state55's Lethal Trifecta, was a wrong card)
    "our training job crashes after days and we lose all progress, how do i avoid starting over",
}
PROBES = ProbeFile("fix74_probes.tsv", STILL_FAILING)

test_a_remedy_question_gets_the_remedy_card = PROBES.test("remedy", expect=the_asked_card)
test_a_question_what_a_resource_is_gets_its_card = PROBES.test("what", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"remedy": 42, "what": 11})

# Offers on main (the remedy first among them) that the rule cards: each failed before it.
REMEDY_OFFERS = [
    ("my gpu runs out of memory when i load the model, how do i fix it", "quantization"),
    (
        "attention is too slow and eats too much memory on long sequences, how do i fix it",
        "flash-attention",
    ),
]


@pytest.mark.parametrize(
    "text",
    [
        "my gpu runs out of memory, how do i fix it",
        "how can we stop the bot from leaking customer data",
        "is there a trick to speed up decoding",
        "any workaround for the nan loss?",
        "what's the fix when the loss spikes",
        "how to avoid overfitting on a tiny dataset",
    ],
)
def test_a_remedy_is_asked(text: str) -> None:
    assert asks_remedy(normalize(text))


@pytest.mark.parametrize(
    "text",
    [
        # a goal, not a remedy: on tuning the meaning's first is as often a neighbour
        "is there a way to align a model on preference pairs",
        "how do i make the bot answer in json",
        # what a thing is
        "what's the deal with python in machine learning",
        "what is the kv cache",
        # the words in another sense
        "the bus stop near the lab, which one is it",
    ],
)
def test_no_remedy_is_asked(text: str) -> None:
    assert not asks_remedy(normalize(text))


@pytest.mark.parametrize(("text", "remedy"), REMEDY_OFFERS)
def test_a_remedy_question_cards_the_meanings_clear_first(
    bundled_index: SearchIndex, text: str, remedy: str
) -> None:
    result = bundled_index.search(text)
    assert result.entry is not None, result
    assert result.entry.id == remedy, result
    assert remedy not in [s.id for s in result.suggestions]


def _offer_before(index: SearchIndex, text: str) -> SearchResult:
    """The text's result before the rule: its search with the step left out."""
    plain = SearchIndex._remedy_carded
    try:
        SearchIndex._remedy_carded = lambda self, result: result  # type: ignore[method-assign]
        return index.search(text)
    finally:
        SearchIndex._remedy_carded = plain  # type: ignore[method-assign]


def test_a_concept_first_stays_an_offer(bundled_index: SearchIndex) -> None:
    """A symptom or a resource (a concept, a tool) is no remedy: Checkpoint leads the meaning
    clearly here, and stays offered first."""
    text = (
        "our training job crashes after days and we lose all progress, how do i avoid starting over"
    )
    result = bundled_index.search(text)
    assert result.fused is not None, result
    (first, cosine), (_, second) = result.fused.similar[:2]
    assert bundled_index.entries[first].id == "checkpoint"
    assert cosine >= REMEDY_COSINE
    assert cosine - second >= REMEDY_LEAD
    assert result.entry is None, result
    assert result.suggestions[0].id == "checkpoint", result


@pytest.mark.parametrize(("text", "remedy"), REMEDY_OFFERS)
def test_a_near_or_unclear_first_stays_an_offer(
    bundled_index: SearchIndex, text: str, remedy: str
) -> None:
    offer = _offer_before(bundled_index, text)
    assert offer.entry is None, offer
    assert offer.fused is not None, offer
    (first, cosine), (second, _) = offer.fused.similar[:2]
    assert bundled_index.entries[first].id == remedy
    assert bundled_index._remedy_carded(offer) is not offer
    far = (first, REMEDY_COSINE - 0.01), (second, REMEDY_COSINE - 0.01 - REMEDY_LEAD)
    tied = (first, cosine), (second, cosine - REMEDY_LEAD + 0.01)
    for similar in (far, tied):
        changed = replace(offer, fused=replace(offer.fused, similar=similar))
        assert bundled_index._remedy_carded(changed) is changed
