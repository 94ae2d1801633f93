"""Probes for task context59 (issue #12, cause57's W1): a name written in the text that is only
the setting of what is asked (inside a pasted code line, one of a list of alternatives, a library
named beside what it does, a general name where a specific one of its kind is asked) is not the
card; controls where the named thing IS asked keep its card or offer, and web or cloud code with
an entry-like name gets none. context59_probes.tsv was written from entry titles and general
knowledge, before reading the search code, the entries' text or any tuning row."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult

from .probe_files import ProbeFile, no_card, the_asked_card_or_first_offers

# The first entry each "choice" probe lists (first61's convention: its card, the others offered)
FIRST_LISTED = {
    "mlx, llama.cpp or core ml - which runs fastest on a mac?": "mlx",
    "vllm, tgi or ollama for serving a 7b model to a small team?": "vllm",
    "adam, adamw or plain sgd for fine-tuning a small bert?": "adam",
    "lora, full fine-tuning or just a better prompt, what would you pick for a support bot?": (
        "lora-qlora"
    ),
    "dpo, ppo or grpo - which do people actually use for reasoning models now?": "dpo",
    "top-k, top-p or just temperature, what do you all set for creative writing?": "top-k",
    "bm25, embeddings or hybrid search for our internal wiki?": "bm25",
    "docker, conda or a plain venv for shipping the bot to a server?": "docker",
    "llama, mistral or qwen for a local coding helper on 16gb?": "llama",
    "claude, gpt-4o or deepseek for long documents, which is cheapest?": "deepseek",
}


def no_card_but_the_first_listed(result: SearchResult, asked: str, written: str) -> None:
    """No card, or the first listed entry's (`FIRST_LISTED`; task first61)."""
    assert result.entry is None or result.entry.id == FIRST_LISTED[result.query], result


def no_card_but_one_asked(result: SearchResult, asked: str, written: str) -> None:
    """No card, or the card of one of the entries asked ("a|b"; "-": none is)."""
    assert result.entry is None or result.entry.id in asked.split("|"), result


def one_of_the_two(result: SearchResult, asked: str, written: str) -> None:
    """The card of one of the two names set against each other, or no card and one of them among
    the first three offers."""
    both = {asked, written}
    if result.entry is not None:
        assert result.entry.id in both, result
    else:
        assert both & {s.id for s in result.suggestions[:3]}, result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. The list of alternatives had a rule (`_listed_offered`: a
# listed name's card offered with the others): it failed ship rule v3 on held out (3 right cards
# lost for 2 wrong) and was reverted; first61's rule (`_first_listed_carded`) cards the first
# listed entry instead, the blind writers' convention, so a list's probe now passes with that card
# or none; "which/what <kind> ..." asks for the kind's own card on 28 tuning rows ("which
# optimizer should i use for a small transformer": Optimizer) against one where it is the
# setting, so no rule was tried there (bench/results/semantic.md, "context59", "first61").
STILL_FAILING: set[str] = {
    # a name in pasted code lifted as asked (Optimizer, GPT-2) or the paste's tool the meaning's
    # first (vLLM for its docker line, Epoch's description for `lr_scheduler.step()`)
    "`optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)` why does my loss spike right"
    " after the warmup finishes?",
    "`tok = AutoTokenizer.from_pretrained('gpt2')` why does it split my surname into three odd"
    " pieces?",
    "`docker run --gpus all vllm/vllm-openai` how does it fit so many users' requests on one gpu"
    " at once?",
    "`lr_scheduler.step()` runs every batch, so is one step one batch or a whole pass over the"
    " data?",
    # the maker beside what it makes: the Hub's card (Transformers (Hugging Face) for the format)
    "a hugging face package to make product images from text?",
    "the hugging face format for saving weights that can't run code when loaded",
    # the kind's card where one of its kind is asked for
    "what optimiser do most projects use these days?",
    "which optimizer is the default for training transformers?",
    "which position encoding do most open models use now?",
    "which sampling setting cuts off the unlikely tail by total probability?",
    # a dotted path's first part lifted (torch: PyTorch), not the class it ends in
    "what does torch.optim.AdamW do?",
    # "--latency" read as the name asked
    "`redis-cli --latency` shows 2 ms, is that the cache or the network?",
}
PROBES = ProbeFile("context59_probes.tsv", STILL_FAILING)

test_a_name_in_pasted_code_is_the_setting = PROBES.test("code", expect=no_card_but_one_asked)
test_one_of_a_list_of_alternatives_gets_the_first_listed_card_or_none = PROBES.test(
    "choice", expect=no_card_but_the_first_listed
)
test_a_library_beside_what_it_does_is_the_setting = PROBES.test(
    "beside", expect=no_card_but_one_asked
)
test_a_general_name_for_a_specific_one_is_the_setting = PROBES.test(
    "general", expect=no_card_but_one_asked
)
test_two_names_set_against_each_other_get_one_of_them = PROBES.test(
    "compare", expect=one_of_the_two
)
test_a_name_asked_keeps_its_card_or_offer = PROBES.test(
    "named", expect=the_asked_card_or_first_offers
)
test_web_or_cloud_code_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"code": 11, "choice": 10, "beside": 8, "general": 9, "compare": 6, "named": 9, "offtopic": 7}
)


# Tuning rows writing a list that is no choice: right cards on main, which the list rule's first
# form (any listed name's card offered) lost; a list rule tried again must keep them (first61's
# does).
@pytest.mark.parametrize(
    ("query", "card"),
    [
        # dev18: one entry's names in a row describe it
        ("graphics processor, GPU, or video card, the chip that does the parallel math", "gpu"),
        # dev13: the name is written before the list too, as what is asked
        ("alignment and ai safety, same field or alignment is smaller", "alignment"),
        # dev19: a half-remembered name and its guesses
        (
            "tokenisation, tokenizing or tokenising, splitting text up into the units a model reads",
            "tokenization",
        ),
    ],
)
def test_a_list_that_is_no_choice_keeps_its_card(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == card, result
