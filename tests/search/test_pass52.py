"""Probes for task pass52: a chat-style question that writes a tool, model or library as its
setting ("running llama locally, how do i stop it making stuff up") and asks about another entry
(issue #12, "never a confident wrong card"). Never the setting's card; the asked entry as the
card or among the first three offers. A question asking about the name it writes keeps its
card; an everyday question with a field word gets none. pass52_probes.tsv was written from the
entry titles and general knowledge before reading dev18's rows, the entries' text or the search
code.

The rule pass52 shipped reads two more syntaxes of a name in passing (`query.in_passing`,
`plainly_in_passing`): the name owning what is asked ("diffusers has ... classes, what do they
control?") and the name set beside what is asked ("is this the same as ai safety or narrower?")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.search import SearchIndex
from bot.search.query import in_passing, plainly_in_passing

from .probe_files import (
    ProbeFile,
    no_card,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on main 63d71e5 and on this branch alike: strict expected failures. The name
# is the subject of the question's own verb ("X keeps forgetting", "X splits words"), a syntax
# in_passing does not read (passing37's "why do X ..." left-over): llama.cpp's and GPT-2's cards.
NOT_WRITTEN_FAILING = {
    "llama.cpp keeps forgetting my old messages, how much can it remember",
    "gpt-2 splits words into weird pieces, how does that work",
}
# Besides those two: the meaning ranks vLLM, Fine-Tuning above Hallucination for a local llama
# ("making stuff up" is no word of it); System Prompt's description card for "instructions into
# the prompt"; Temperature not among the first three for "turn the randomness up" (Seed,
# Sampling, Decoding Strategy); Top-k fourth behind Logits, Top-p, Sampling.
SHOWN_FAILING = {
    *NOT_WRITTEN_FAILING,
    "running llama locally, how do i stop it making stuff up",
    "put my bot in docker, how do i stop users sneaking their own instructions into the prompt",
    "my gguf model repeats itself word for word, should i turn the randomness up",
    "after the softmax how do i only keep the few most likely words",
}

NOT_WRITTEN = ProbeFile("pass52_probes.tsv", NOT_WRITTEN_FAILING)
SHOWN = ProbeFile("pass52_probes.tsv", SHOWN_FAILING)
PROBES = ProbeFile("pass52_probes.tsv")

test_a_setting_is_no_card = NOT_WRITTEN.test("setting", expect=not_the_written_card)
test_a_setting_shows_the_asked = SHOWN.test("setting", expect=the_asked_card_or_first_offers)
test_a_name_asked_keeps_its_card = PROBES.test("named", expect=the_asked_card)
test_an_everyday_question_is_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probe_file_is_whole = PROBES.counted({"setting": 32, "named": 12, "offtopic": 8})


def _reads(rule: Callable[[str, int, int], bool], text: str, name: str) -> bool:
    start = text.index(name)
    return bool(rule(text, start, start + len(name)))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("deepseek v3 has 671b parameters but runs like a 37b model how", "deepseek"),
        ("diffusers has dpmsolver and euler classes what do they control", "diffusers"),
        ("every transformer layer has a normalizing step which one", "transformer layer"),
        ("is this the same as ai safety or narrower", "ai safety"),
        ("is it the same thing as the hugging face library", "hugging face"),
        ("a desktop app similar to llama cpp for my mac", "llama cpp"),
    ],
)
def test_a_name_owning_or_set_beside_what_is_asked_is_plainly_in_passing(
    text: str, name: str
) -> None:
    assert _reads(in_passing, text, name)
    assert _reads(plainly_in_passing, text, name)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("does vllm have prefix caching", "vllm"),  # asks about vLLM
        ("which optimizer has momentum built in", "optimizer"),  # the kind asked
        ("how many layers llama 3 has", "llama"),  # nothing owned after it
        ("lora has become the default way to fine tune why", "lora"),  # a state of LoRA's
        ("rag has changed a lot this year", "rag"),
        ("the model has to fit on one gpu", "model"),
        ("is tool calling the same as function calling", "tool calling"),  # the side asked
    ],
)
def test_a_name_asked_about_is_not_read_as_owning(text: str, name: str) -> None:
    assert not _reads(plainly_in_passing, text, name)


# In pass52's words, shaped like tuning rows where the name owning what is asked got the card
# (dev10 DeepSeek, dev16 Transformer Block, dev18 Diffusers): each a card for the owner on main.
@pytest.mark.parametrize(
    ("query", "owner", "asked"),
    [
        (
            "diffusers has a bunch of sampler classes like euler and ddim, what do they control?",
            "diffusers",
            "scheduler",
        ),
        (
            "each transformer layer has a normalization step that isn't batchnorm, which one?",
            "transformer-block",
            "layer-norm",
        ),
        (
            "deepseek has 671b params yet costs like a 37b model to run, how?",
            "deepseek",
            "mixture-of-experts",
        ),
    ],
)
def test_the_owner_is_offered_behind_what_is_asked(
    bundled_index: SearchIndex, query: str, owner: str, asked: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    offers = [s.id for s in result.suggestions]
    assert offers[0] == asked, result
    assert owner in offers, result


def test_a_name_set_beside_what_is_asked_is_no_card(bundled_index: SearchIndex) -> None:
    """dev18's shape ("is this the same as 'ai safety' or narrower? ..."): AI Safety's card on
    main; what "this" is the text never names."""
    result = bundled_index.search(
        "is that the same thing as ai safety, or just the part about the model wanting what we"
        " intended?"
    )
    assert result.entry is None, result


@pytest.mark.parametrize(
    ("query", "card"),
    [
        (
            "is function calling the same as tool calling or something different?",
            "function-calling",
        ),
        ("qlora is similar to lora but what does the q add?", "quantized-low-rank-adaptation"),
        ("lora has become the default way to fine tune, why?", "lora-qlora"),
    ],
)
def test_the_side_asked_keeps_its_card(bundled_index: SearchIndex, query: str, card: str) -> None:
    the_asked_card(bundled_index.search(query), card, card)
