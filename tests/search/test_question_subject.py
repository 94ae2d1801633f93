"""A question's subject: the name right after its asking words, a verb that names its noun, and
names that only say what a question is about. Queries written for this file from the entry
titles (none from a relevance slice)."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import (
    asked_state,
    compared_sides,
    derived_forms,
    is_question,
    query_core,
    subject_words,
)


@pytest.mark.parametrize(
    ("core", "words"),
    [
        ("how does beam search pick tokens", ["beam", "search", "pick", "tokens"]),
        ("why is the gpu idle", ["gpu", "idle"]),
        ("which tokenizer should i use", ["tokenizer", "should", "i", "use"]),
        ("how can we speed up training", ["training"]),  # "we speed up": the asker's verb
        ("how long does pretraining take", ["pretraining", "take"]),
        ("is rag still worth it", ["rag", "still", "worth", "it"]),
        ("why do we even need tokenizers", ["tokenizers"]),  # a hedge before the verb
        ("kv cache memory", ["kv", "cache", "memory"]),  # no frame: the words themselves
        ("softmax", []),  # one word is the whole query, not a subject
    ],
)
def test_subject_words_start_after_the_asking_words(core: str, words: list[str]) -> None:
    assert subject_words(core) == words


@pytest.mark.parametrize(
    ("word", "noun"),
    [
        ("quantized", "quantization"),
        ("quantize", "quantization"),
        ("tokenizing", "tokenization"),
        ("overfit", "overfitting"),
        ("distill", "distillation"),
        ("hallucinate", "hallucination"),
        ("refuse", "refusal"),
        ("embed", "embedding"),
    ],
)
def test_a_verb_form_yields_its_noun(word: str, noun: str) -> None:
    assert noun in derived_forms(word)


@pytest.mark.parametrize("word", ["", "gpu", "emb", "c++", "12345"])
def test_short_or_odd_words_yield_nothing(word: str) -> None:
    assert derived_forms(word) == []


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("ok but why do we even need tokenizers", True),
        ("so how does beam search work", True),
        ("but", False),
        ("ok the tokenizer splits words", False),
    ],
)
def test_fillers_before_the_asking_word(text: str, asks: bool) -> None:
    assert is_question(text) is asks


def test_a_huge_question_is_parsed_quickly_and_safely() -> None:
    core = query_core("how does " + "very " * 5000 + "long thing work")
    assert subject_words(core)[:2] == ["very", "very"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # the name right after the asking words, whatever the rest of the sentence names
        ("how does speculative decoding speed up generation", "speculative-decoding"),
        ("how does pagedattention save memory", "paged-attention"),
        ("why is perplexity a bad metric for chat models", "perplexity"),
        ("how does cross attention connect the encoder and decoder", "cross-attention"),
        ("why are embeddings normalized before cosine similarity", "embeddings"),
        # a plain word that is a name ("loss") counts in the subject's place
        ("why does the loss plateau after a few epochs", "loss"),
        # a verb names its noun
        ("does quantizing a model hurt accuracy much?", "quantization"),
        ("how do you distill a big model into a small one", "knowledge-distillation"),
        ("why do chatbots hallucinate citations", "hallucination"),
        ("why do models over-refuse harmless prompts", "over-refusal"),
        # the subject and its verb's noun make one name
        ("how are rewards hacked in rl training", "reward-hacking"),
        ("how are llms evaluated these days", "llm-evaluation"),
        # more ways a chat question is framed
        ("who invented the attention mechanism", "attention"),
        ("tell me how paged attention works", "paged-attention"),
        ("in simple terms, what is a transformer", "transformers"),
        # the noun of the asker's own verb, alone or after its object
        ("how do i quantize my model for a phone", "quantization"),
        ("how can we evaluate llms without humans", "llm-evaluation"),
        # ... a verb written in two words, whatever model the rest names
        ("how do i fine tune llama on my own data", "fine-tuning"),
        ("how do i fine-tune llama on my own data", "fine-tuning"),
        # one typo in a long name
        ("how does speculativ decoding speed up generation", "speculative-decoding"),
        ("hey guys, why does halucination happen so often", "hallucination"),
        # a name mistyped further into the question, alone or with the next word
        ("what do people mean when they say the embedings are bad", "embeddings"),
        ("anyone tried speculativ decoding with a tiny draft model?", "speculative-decoding"),
        # the start of one entry's name, then the question's own words
        ("why do multi agent pipelines fail so often", "multi-agent-systems"),
        # "is my X <state>": the state is asked about
        ("is my model hallucinating or is the retrieval wrong", "hallucination"),
        # chat that names its topic first and asks nothing
        ("reward hacking in the coding benchmark run", "reward-hacking"),
        ("bm25 or dense retrieval for a faq bot", "bm25"),
        # ... mistyped
        ("quantizaton to int4 on an old laptop", "quantization"),
        ("hallucinaton in long summaries of legal text", "hallucination"),
        # the subject is the general name; the text writes all of a more specific one
        ("why does my loss go up on the validation data", "validation-loss"),
        ("does attention really sink onto the first token", "attention-sink"),
        # ... and not where only the general name is written
        ("how many tokens should my prompt be", "token"),
        # a name the subject's entry relates to is what it is weighed against, not the subject
        ("why is hnsw the default index in vector databases", "hierarchical-navigable-small-world"),
        ("how does qlora cut memory compared to lora", "quantized-low-rank-adaptation"),
    ],
)
def test_a_question_or_chat_about_its_subject_gets_its_card(
    bundled_index: SearchIndex, query: str, expected: str
) -> None:
    card = bundled_index.search(query).entry
    assert (card.id if card else None) == expected


@pytest.mark.parametrize(
    "query",
    [
        "what is the best database for an llm",  # "for an llm": context, not the subject
        "which cloud region is cheapest for rag",
        "how do i center a div in css",
        "why is my kubernetes pod pending",
        "is bitcoin a good investment",
        "how do i train for a marathon",  # "train" is a plain word, not Training
        "is retraining every week a good idea",  # not a typo of Pretraining: another word
    ],
)
def test_no_card_for_what_a_question_only_mentions(bundled_index: SearchIndex, query: str) -> None:
    assert bundled_index.search(query).status != "match"


@pytest.mark.parametrize(
    ("core", "state"),
    [
        ("is my model overfitting", "overfitting"),
        ("are the weights exploding after warmup", "exploding"),
        ("is the tokenizer fast", None),  # an adjective, not a state it is in
        ("is our rag stack overrated", None),  # two words before the state: not this frame
        ("why is my model overfitting", None),  # asked with "why": the subject frame decides
    ],
)
def test_the_state_a_yes_no_question_asks_about(core: str, state: str | None) -> None:
    assert asked_state(core) == state


def test_two_names_side_by_side_ask_about_the_second(bundled_index: SearchIndex) -> None:
    """ "latency" only says which kind of objective: no Latency card (the meaning may not know
    "slo" well enough for a card of its own, but the first name is not the answer)."""
    result = bundled_index.search("what would be a sane latency slo for an internal tool")
    assert result.entry is None or result.entry.id == "service-level-objective"


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("how do i lower perplexty on code", ["perplexity"]),
        ("anyone tried speculativ decoding yet", ["speculative-decoding"]),
        ("our lokenization rules are odd", []),  # the first letters differ: not taken for a typo
        ("is pretraining expensive", []),  # a name spelled right is no typo
    ],
)
def test_names_mistyped_inside_a_question(
    bundled_index: SearchIndex, text: str, entries: list[str]
) -> None:
    found = bundled_index.questions.mistyped_words(text)
    assert [bundled_index.entries[entry].id for _, entry, _ in found] == entries


@pytest.mark.parametrize(
    "query",
    [
        # a plain word that names an entry, in a sentence about something else entirely
        "what's the best temperature to bake bread",
        "is bitcoin a good token to invest in",
        "how do i distill whiskey at home",
        "how do i reduce latency in my gaming router",
        "what's the context of this poem",
    ],
)
def test_a_plain_word_in_its_everyday_sense_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry is None


@pytest.mark.parametrize(
    ("text", "entry", "written"),
    [
        ("my uncle asked me about bm25 at dinner", "bm25", True),
        ("grandma heard of gguf on the radio", "gguf", True),
        ("the best temperature to bake bread", "temperature", False),
        ("what do i tell him about bm25", "gguf", False),  # another entry's acronym
    ],
)
def test_the_far_sentence_rule_spares_acronyms(
    bundled_index: SearchIndex, text: str, entry: str, written: bool
) -> None:
    """Far from every entry, only a name written as an acronym may still make a card."""
    assert bundled_index._acronym_written(text, bundled_index.positions[entry]) is written


@pytest.mark.parametrize(
    ("query", "card", "offered"),
    [
        # a comparison that goes on to say what for: the first side's card, the other offered
        ("ppo vs dpo for a tiny chat model", "proximal-policy-optimization", "dpo"),
        ("gguf or safetensors for sharing my finetune", "gguf", "safetensors"),
        ("swiglu or gelu in the mlp block", "swish-gated-linear-unit", None),
        # the first side names nothing: the whole comparison is read ("static" is no entry)
        ("static vs dynamic quantization?", "quantization", None),
        # ... the first side up to a qualifier ("with rank 8") is the name
        ("lora with rank 8 vs full finetuning on a 7b", "lora-qlora", None),
    ],
)
def test_a_comparison_with_a_purpose_answers_its_first_side(
    bundled_index: SearchIndex, query: str, card: str, offered: str | None
) -> None:
    result = bundled_index.search(query)
    assert result.entry_id == card
    if offered:
        assert result.suggestions[0].id == offered


@pytest.mark.parametrize(
    ("query", "not_card"),
    [
        # a possessive owns the topic: the thing owned is what is meant
        ("vllm's scheduler under many short requests", "vllm"),
        # a plain word first is a description's head, not a topic
        ("training with a teacher model's soft labels", "training"),
        ("the optimizer that keeps a moving average of squared gradients", "optimizer"),
        # a relative clause right after: a kind of that name described
        ("alignment method that uses a written constitution instead of human labels", "alignment"),
        ("checkpoint format that cannot run arbitrary code when loaded", "checkpoint"),
        # a sentence not near enough the glossary: another field's sense of the name
        ("alignment of text in a latex table", "alignment"),
        ("throughput of kafka with three partitions", "throughput"),
    ],
)
def test_text_that_starts_with_a_name_but_is_not_about_it(
    bundled_index: SearchIndex, query: str, not_card: str
) -> None:
    card = bundled_index.search(query).entry
    assert card is None or card.id != not_card


@pytest.mark.parametrize(
    ("core", "pair"),
    [
        ("qlora or lora for a 7b on one card", ("qlora", "lora")),
        ("cross attention vs self attention in a decoder", ("cross attention", "self attention")),
        ("tensor cores versus cuda cores", ("tensor cores", "cuda cores")),
        ("rust or go", ("rust", "go")),
        ("which should i pick rust or go", None),  # the comparison must start the text
        ("ppo vs dpo really makes no difference", None),  # no word saying what it is for
    ],
)
def test_the_sides_of_a_comparison(core: str, pair: tuple[str, str] | None) -> None:
    assert compared_sides(core, core, core, None) == pair
