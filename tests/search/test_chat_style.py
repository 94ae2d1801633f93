"""Chat spelling read plain (bot/search/chat.py): "wat r logits lol", "hola! how does rag work",
"whaaat is an embedding". Sentences written for this file (none from a relevance slice or
chat_style_probes.tsv)."""

from __future__ import annotations

import pytest

from bot.glossary import load_glossary
from bot.glossary.keys import compact
from bot.search import SearchIndex
from bot.search.chat import (
    _DROPPED,
    _FRAME_WORDS,
    _SPELLINGS,
    _frame_typos,
    plain_chat,
)
from bot.search.names import NameTable


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        # chat spellings of function words
        ("wat r embeddings", "what are embeddings"),
        ("wats the point of a kv cache", "what's the point of a kv cache"),
        ("how shud i pick a batch size", "how should i pick a batch size"),
        ("can u explain beam search", "can you explain beam search"),
        ("y is my gpu idle", "why is my gpu idle"),
        ("is it slow bc of the kv cache", "is it slow because of the kv cache"),
        # fillers dropped, their punctuation kept
        ("ngl rag confuses me, how does it work", "rag confuses me, how does it work"),
        ("what is perplexity lol?", "what is perplexity?"),
        ("tbh how does lora work fr", "how does lora work"),
        # greetings and fillers in other languages
        ("hola, what is a tokenizer", "what is a tokenizer"),
        ("bonjour tout le monde! how does dropout work", "how does dropout work"),
        ("guten morgen, was ist rag", "what is rag"),
        ("namaste ji, what is rlhf", "what is rlhf"),
        ("oi galera, what is a gguf file", "what is a gguf file"),
        ("vector database kya hai", "vector database?"),  # "kya hai" asks (test_hardchat.py)
        ("que es un tokenizer", "what is tokenizer"),  # the article goes with the asking words
        ("hola, c'est quoi le rag", "what is rag"),
        ("wie funktioniert beam search", "how does beam search"),
        ("pourquoi is my loss nan", "why is my loss nan"),
        # greetings in English at the start, emoji anywhere
        ("hey guys, why does dropout help", "why does dropout help"),
        ("yo ddim sampler summary anyone", "ddim sampler summary anyone"),
        ("how does lora work 🙏", "how does lora work"),
        ("hi all 👋 what is rag", "what is rag"),
        # a tag that makes a statement a question
        ("lora is enough for a 7b or nah", "lora is enough for a 7b?"),
        ("top p keeps the likeliest words, right", "top p keeps the likeliest words?"),
        ("decoding goes from left to right", "decoding goes from left to right"),
        # chat contractions and acronyms
        ("hows rag different from search", "how is rag different from search"),
        ("tldr what is dpo", "what is dpo"),
        # stretched letters: to a known word of one letter, else two
        ("whaaat is softmax", "what is softmax"),
        ("why is it sooooo slow", "why is it so slow"),
        ("pleeease explain lora", "please explain lora"),
        ("it needs sooo much vram, y", "it needs so much vram, why"),
        ("a long sleeeep", "a long sleep"),
        # typos of the words a question's frame is made of
        ("how shoud i tune the learning rate", "how should i tune the learning rate"),
        ("whcih optimizer for a small model", "which optimizer for a small model"),
        ("the diffrence betwen sft and rlhf", "the difference between sft and rlhf"),
        # "ppl" is people where it does what people do, else Perplexity's acronym
        ("y do ppl use adamw", "why do people use adamw"),
        ("what is a good ppl for a 7b model", "what is a good ppl for a 7b model"),
        # a statement that asks
        ("i still dont understand how attention works", "how attention works"),
        ("idk why my loss is nan", "why my loss is nan"),
    ],
)
def test_chat_spelling_is_written_out(typed: str, plain: str) -> None:
    assert plain_chat(typed) == plain


@pytest.mark.parametrize(
    "typed",
    [
        "u-net",  # a name with a letter in it
        "x and y",  # letters, not words
        "predict y from x",
        "r vs python for data science",  # the R language
        "top n sampling",
        "a u net for segmentation",
        "lol",  # one word: whatever it is, as typed
        "hola",
        "ngl",
    ],
)
def test_letters_names_and_lone_words_stay(typed: str) -> None:
    assert plain_chat(typed) == typed


def test_no_chat_word_is_a_name_in_the_glossary() -> None:
    """A chat word is rewritten wherever it stands: none may be a name people look up."""
    names = NameTable(tuple(load_glossary()))
    typos = _frame_typos()
    words = {*_SPELLINGS, *_DROPPED, *typos, "y", "r", "u", "n"}
    named = sorted(w for w in words if names.lookup(compact(w)))
    assert named == []
    assert set(typos.values()) <= set(_FRAME_WORDS)


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("wat r logits exactly", "logits"),
        ("hola amigos, how does speculative decoding work", "speculative-decoding"),
        ("y do ppl use rmsprop", "rmsprop"),
        ("bonjour! whaaat is a vector database lol", "vector-databases"),
        ("how shoud i set the temperature for coding", "temperature"),
        ("i still dont get how beam search works", "beam-search"),
    ],
)
def test_chat_questions_get_their_card(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id


def test_the_result_keeps_the_query_as_typed(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("wat r logits lol")
    assert result.query == "wat r logits lol"
    assert result.normalized_query == "wat r logits lol"


@pytest.mark.parametrize(
    "query",
    [
        "hola amigos, who's up for pizza tonight lol",
        "ngl my dog ate my homework again smh",
        "bonjour, y is the metro so late today",
    ],
)
def test_chat_about_nothing_gets_no_card(bundled_index: SearchIndex, query: str) -> None:
    assert bundled_index.search(query).entry is None


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("is pyhton fast enough for training loops", "python"),
        ("how do i install pytrch on windows", "pytorch"),
    ],
)
def test_a_short_name_mistyped_inside_a_question_is_read(
    bundled_index: SearchIndex, query: str, entry_id: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == entry_id


@pytest.mark.parametrize(
    ("word", "entry_id"),
    [
        ("tensr", "tensor"),
        ("pyhton", "python"),
        ("teams", None),  # an English word
        ("llava", None),  # a letter changed: a product, not Llama
        ("ollama", None),  # a letter added
    ],
)
def test_short_typos_leave_out_or_swap_a_letter_of_one_entrys_name(
    bundled_index: SearchIndex, word: str, entry_id: str | None
) -> None:
    found = bundled_index.questions.short_typo(word)
    assert (bundled_index.entries[found].id if found is not None else None) == entry_id


@pytest.mark.parametrize("alias", ["❤️ zorb", "ngl zorb", "hola blix", "zorb lol"])
def test_a_server_alias_as_typed_is_not_read_as_chat(
    bundled_index: SearchIndex, alias: str
) -> None:
    # A moderator's alias may hold emoji or a chat word; what was accepted as an alias finds its
    # card as typed, before any chat word is dropped from it.
    result = bundled_index.search(alias, {compact(alias): "rag"})
    assert result.entry is not None
    assert result.entry.id == "rag"
    assert result.strategy == "server-alias"
