"""Short texts that write an entry's name in another field's sense: the name and a word or two
of a game, a science, a drug, a film, an instrument ("checkpoint in zelda", "fine tuning a
guitar"), against short ML texts of the same shape that keep their card ("checkpoint in
pytorch"). Written for this file (task everyday4), none from a relevance slice."""

from __future__ import annotations

import pytest

from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.everyday import everyday_sense

ELSEWHERE = [
    # cards on main
    ("checkpoint in zelda", "checkpoint"),
    ("quantization in physics", "quantization"),
    ("hallucination on lsd", "hallucination"),
    ("transformers the movie", "transformers"),
    ("fine tune the piano", "fine-tuning"),
    ("fine tuning a guitar", "fine-tuning"),
    ("fine tuning a violin", "fine-tuning"),
    ("hallucination on mushrooms", "hallucination"),
    ("hallucinations from fever", "hallucination"),
    ("hallucination on ketamine", "hallucination"),
    ("transformers the cartoon", "transformers"),
    ("alignment in dnd", "alignment"),
    ("alignment in astrology", "alignment"),
    ("alignment of planets", "alignment"),
    ("sandbox in minecraft", "sandbox"),
    ("sandbox for toddlers", "sandbox"),
    ("sandbox at the playground", "sandbox"),
    ("epoch in geology", "epoch"),
    # offered on main already: they stay offered
    ("fine tuning my golf swing", "fine-tuning"),
    ("save checkpoint elden ring", "checkpoint"),
    ("checkpoint in mario kart", "checkpoint"),
    ("checkpoint charlie berlin", "checkpoint"),
    ("checkpoint in hollow knight", "checkpoint"),
    ("transformers bumblebee", "transformers"),
    ("transformers optimus prime", "transformers"),
    ("fine tune the cello", "fine-tuning"),
    ("fine tune the radio", "fine-tuning"),
    ("distillation of whiskey", "knowledge-distillation"),
    ("distillation of vodka", "knowledge-distillation"),
    ("temperature of the oven", "temperature"),
    ("temperature of coffee", "temperature"),
    ("attention span of toddlers", "attention"),
    ("embedding in histology", "embeddings"),
    ("epoch of history", "epoch"),
]

NO_ENTRY = ["pruning roses in spring", "pruning tomato plants", "bias in journalism"]

FIELD = [
    ("checkpoint in pytorch", "checkpoint"),
    ("checkpoint in keras", "checkpoint"),
    ("checkpoint in pytorch lightning", "checkpoint"),
    ("checkpoint every epoch", "checkpoint"),
    ("checkpoint after each epoch", "checkpoint"),
    ("quantization for phones", "quantization"),
    ("quantization for raspberry pi", "quantization"),
    ("hallucination in rag", "hallucination"),
    ("hallucination in chatgpt", "hallucination"),
    ("hallucination in summaries", "hallucination"),
    ("hallucination in medical chatbots", "hallucination"),
    ("transformers in huggingface", "transformers-library"),
    ("transformers in pytorch", "transformers"),
    ("transformers for translation", "transformers"),
    ("fine tuning llama", "fine-tuning"),
    ("fine tuning on a laptop", "fine-tuning"),
    ("embedding in sentence transformers", "embeddings"),
    ("distillation of bert", "knowledge-distillation"),
    ("agent with tools", "ai-agents"),
    ("sandbox for agents", "sandbox"),
    ("sandbox for code execution", "sandbox"),
    ("pruning neural networks", "model-compression"),
]


# ... and of those, the texts far from the field as a whole get no entry at all, no card and no
# offer (task offtopic41, `SearchIndex._offered_off_field`): nonsense gets no "Did you mean"
FAR = {
    "transformers the movie",
    "fine tuning a violin",
    "hallucination on mushrooms",
    "hallucinations from fever",
    "hallucination on ketamine",
    "transformers the cartoon",
    "alignment in dnd",
    "alignment in astrology",
    "alignment of planets",
    "epoch in geology",
    "save checkpoint elden ring",
    "checkpoint in mario kart",
    "checkpoint in hollow knight",
    "transformers optimus prime",
    "fine tune the cello",
    "fine tune the radio",
    "distillation of whiskey",
    "distillation of vodka",
    "temperature of the oven",
    "temperature of coffee",
    "attention span of toddlers",
    "embedding in histology",
    "epoch of history",
}


@pytest.mark.parametrize(("query", "entry_id"), [c for c in ELSEWHERE if c[0] not in FAR])
def test_a_name_in_another_fields_sense_is_offered(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == "suggest", result
    assert entry_id in [s.id for s in result.suggestions]


@pytest.mark.parametrize("query", sorted(FAR))
def test_a_name_in_another_fields_sense_far_from_the_field_gets_no_entry(
    bundled_index: SearchIndex, query: str
) -> None:
    result = bundled_index.search(query)
    assert result.status == "none", result
    assert result.entry is None, result
    assert not result.suggestions, result


def test_the_far_texts_are_among_the_other_fields_senses() -> None:
    assert {query for query, _ in ELSEWHERE} >= FAR


@pytest.mark.parametrize("query", NO_ENTRY)
def test_another_field_without_a_name_gets_no_entry(bundled_index: SearchIndex, query: str) -> None:
    assert bundled_index.search(query).status == "none"


@pytest.mark.parametrize(("query", "entry_id"), FIELD)
def test_a_short_ml_text_keeps_its_card(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id


def test_quantization_in_llama_cpp_keeps_a_card(bundled_index: SearchIndex) -> None:
    """Either entry is a fair card; an offer of both would be a step back."""
    result = bundled_index.search("quantization in llama.cpp")
    assert result.entry is not None
    assert result.entry.id in {"quantization", "llama-cpp"}


@pytest.mark.parametrize(
    "text",
    ["token in board games", "checkpoint in racing games", "checkpoint in mario kart"],
)
def test_the_short_rule_only_adds_offers(bundled_index: SearchIndex, text: str) -> None:
    """A short text the rule for two everyday words offers (its rest under WORDS_REST_COSINE,
    over OFF_DOMAIN_COSINE for some) stays offered though the short rule judges it too: a rest
    not off the field is left to the other rules, not kept a card."""
    semantic = bundled_index.semantic
    assert semantic is not None
    normalized = normalize(text)
    name = normalized.split()[0]
    span = (normalized, 0, len(name), 0.0, "sentence")

    def never(word: str) -> bool:
        return False

    assert everyday_sense(semantic, never, *span, unused=never)
