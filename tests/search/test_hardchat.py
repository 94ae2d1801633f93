"""Questions typed the hard way (issue #12, dev6): preambles before the question, ML shorthand,
a name mistyped where nothing else in the text names an entry. Sentences written for this file
(none from a relevance slice or the chat-style probes)."""

from __future__ import annotations

import pytest

from bot.glossary import load_glossary
from bot.glossary.keys import compact, normalize
from bot.search import SearchIndex
from bot.search.chat import SHORTHAND, plain_chat
from bot.search.names import NameTable
from bot.search.query import plural_variants

# -- what people say about themselves before they ask ------------------------------------------


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("hey all, new here, what is a kv cache", "what is a kv cache"),
        ("lurker here 👀 how does beam search pick words", "how does beam search pick words"),
        ("total beginner here, why do we normalize layers", "why do we normalize layers"),
        ("sorry stupid question but what does a tokenizer output", "what does a tokenizer output"),
        ("first time posting here hi, what is rag", "what is rag"),
        ("ok so, why is my gpu idle", "why is my gpu idle"),
        ("ok but how does a kv cache grow", "how does a kv cache grow"),
        # no preamble: "new" before a noun, "so" before a word, "ok" with nothing setting it apart
        ("new tokenizer for my model", "new tokenizer for my model"),
        ("so many layers in this model", "so many layers in this model"),
        ("ok computer is a great album", "ok computer is a great album"),
    ],
)
def test_preambles_before_a_question_are_dropped(typed: str, plain: str) -> None:
    assert plain_chat(typed) == plain


def test_a_question_after_a_lurker_preamble_gets_its_card(bundled_index: SearchIndex) -> None:
    # before: "total beginner here, ..." was no question, and the meaning alone offered choices
    assert (
        bundled_index.search("total beginner here, why do we normalize layers").entry_id
        == "layer-norm"
    )


# -- a last clause that only guesses --------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        (
            "whats the usual optimizer for transformers, adamw?",
            "whats the usual optimizer for transformers, is it adamw?",
        ),
        # a plain word, a number or a question word is no guess
        ("my loss is nan after a few steps, why?", "my loss is nan after a few steps, why?"),
        ("how long should a chunk be, 500 tokens?", "how long should a chunk be, 500 tokens?"),
    ],
)
def test_a_bare_guess_at_the_end_is_read_as_a_tag_question(typed: str, plain: str) -> None:
    assert plain_chat(typed) == plain


def test_the_bare_guess_is_what_is_asked_about(bundled_index: SearchIndex) -> None:
    # before: PyTorch, the name the question starts with
    query = "what lets pytorch work out derivatives for me, autograd?"
    assert bundled_index.search(query).entry_id == "automatic-differentiation"


# -- questions in other languages, where the term is written in English -----------------------


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        # Hindi asks after its subject: "X kya hai" is "what is X"
        ("yeh beam search kya hai", "beam search?"),
        ("dropout kya hota hai, kab use kare", "dropout? kab use kare"),
        # German: "can someone explain what ..."
        ("kann mir jemand erklären was ein tokenizer macht", "what is tokenizer macht"),
    ],
)
def test_question_words_of_other_languages_make_a_question(typed: str, plain: str) -> None:
    assert plain_chat(typed) == plain


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # before: "kya hota hai" was dropped, "ye" left: "ye rlhf", a typo of nothing
        ("bhai ye rlhf kya hota hai", "rlhf"),
        # before: no question, the name offered only
        ("kann mir jemand erklären was beam search ist", "beam-search"),
    ],
)
def test_questions_in_other_languages_get_their_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


# -- ML shorthand ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("how do attn heads differ", "how do attention heads differ"),
        ("why is my grad norm huge", "why is my gradient norm huge"),
        ("max ctx len of llama", "max context length of llama"),
        ("4bit quant on a laptop, worth it?", "4bit quantization on a laptop, worth it?"),
        ("grad school or a job", "grad school or a job"),  # the university kind stays
        ("len of a python list", "len of a python list"),  # "len" is a length after ctx only
    ],
)
def test_ml_shorthand_is_written_out(typed: str, plain: str) -> None:
    assert plain_chat(typed) == plain


def test_shorthand_is_no_name_and_writes_out_a_word_of_one() -> None:
    entries = tuple(load_glossary())
    names = NameTable(entries)
    words = {w for e in entries for name in e.names for w in normalize(name).split()}
    for short, long in SHORTHAND.items():
        assert not names.lookup(compact(short)), short
        assert long in words or not words.isdisjoint(plural_variants(long)), long


def test_a_gradient_norm_question_gets_its_card(bundled_index: SearchIndex) -> None:
    # before: "grad" was no word the meaning or the names knew: choices only
    assert (
        bundled_index.search("why is my grad norm huge after warmup").entry_id
        == "gradient-clipping"
    )


# -- a name mistyped where nothing else names an entry -----------------------------------------


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # two neighbouring characters swapped in a short name (an acronym, if of three)
        ("honestly what does a vea learn, the latent space?", "vae"),
        ("can someone explain cdua kernels to me like im five", "cuda"),
        ("is jsno fine for storing my training examples", "json"),
        ("my bm52 index returns junk for long natural language queries", "bm25"),
        # two letters swapped in a long name (too far for `_nearly_named`'s ratio)
        ("is rmsnrom cheaper than the usual norm", "root-mean-square-normalization"),
        # a letter typed twice
        ("hey whats a tokken, like in the api pricing page", "token"),
        # texts that ask nothing, about the field
        ("rmsporp with momentum for training rnns back in the day", "rmsprop"),
        ("dokcer image for serving my model on a cheap vps", "docker"),
    ],
)
def test_a_lone_mistyped_name_the_meaning_agrees_with_is_the_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card


@pytest.mark.parametrize(
    "query",
    [
        "vea is a nice name for a cat",  # the text as typed is about nothing in the field
        "my tokken for the arcade machine got stuck",
        "cdua is my cousin's nickname lol",
        "jsno said he'd be late to practice",
        "the bus schedule changed again this week",  # an English word, no Scheduler typo
    ],
)
def test_a_word_one_slip_from_a_name_outside_the_field_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry_id is None


def test_a_name_and_the_next_word_are_no_mistyped_name(bundled_index: SearchIndex) -> None:
    # "teacher forcing in" is one letter more than "teacher forcing": a name, then a word
    assert bundled_index.questions.mistyped_words("teacher forcing in seq2seq why") == []


@pytest.mark.parametrize(
    ("query", "card"),
    [
        # the question's subject slipped, other names written after it
        ("is cdua still needed if i run pytorch on rocm", "cuda"),
        ("why does the vea blur my stable diffusion outputs so much", "vae"),
        ("does jsno allow comments, my yaml config has lots", "json"),
    ],
)
def test_a_slipped_subject_is_asked_about_where_the_meaning_ranks_it_high(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    assert bundled_index.search(query).entry_id == card
