"""Probes for task offfield76 (issue #12 off-topic): questions from outside the field that use
the field's words (a transformer on a power pole, a model train, a fashion model, an arcade
token, attention in class, an oil pipeline, a Discord bot's role or rate limit) get no card;
the same words asked in the ML sense, in everyday settings or everyday words, keep theirs.
offfield76_probes.tsv says when and how they were written (bench/results/semantic.md,
"offfield76")."""

from __future__ import annotations

import pytest

from bot.glossary import load_glossary
from bot.search import SearchIndex
from bot.search.senses import read_in_other_sense, says_enough

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a neighbouring field's sense: the rest ("in the brain pass signals to each other") leads
    # the nerve cells' sense too little (0.06 summed, under `SENSE_LEAD`)
    "how do neurons in the brain pass signals to each other",  # Neuron
    # a Discord bot's question carded by description, no name of the entry written
    "how do i let my bot read message content",  # Prompt Injection
    # the field's sense with no card on main (offered, or nothing)
    "what temperature should i use for creative writing with an llm",
    "my training loss is stuck and won't go down",
    "we use gpt-4o to write product descriptions for our little shop. they all sound the same "
    "and a bit boring. what temperature should i set so the wording varies more?",
    "trained a small gpt on shakespeare overnight and the power went out at 3am. how often should "
    "i save a checkpoint during training so i don't lose hours again?",
    "cooking blog here: i use an llm to write recipes, and the same prompt gives different "
    "recipes every time. how do i set a seed so the model's output is the same?",
}
PROBES = ProbeFile("offfield76_probes.tsv", STILL_FAILING)

test_an_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_an_everyday_sense_in_a_chat_message_gets_no_card = PROBES.test("everydaylong", expect=no_card)
test_a_neighbouring_field_s_sense_gets_no_card = PROBES.test("neighbour", expect=no_card)
test_a_discord_bot_question_gets_no_card = PROBES.test("discordbot", expect=no_card)
test_the_field_s_sense_keeps_its_card = PROBES.test("field", expect=the_asked_card)
test_the_field_s_sense_in_an_everyday_setting_keeps_its_card = PROBES.test(
    "fieldlong", expect=the_asked_card
)
test_the_field_s_sense_in_everyday_words_keeps_its_card = PROBES.test(
    "fieldplain", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted(
    {
        "everyday": 35,
        "everydaylong": 12,
        "neighbour": 12,
        "discordbot": 18,
        "field": 26,
        "fieldlong": 7,
        "fieldplain": 4,
    }
)


@pytest.mark.parametrize(
    "query",
    [
        # each carded its entry before `_other_sense_offered` (failed on main 3f884b6e)
        "what is a transformer on a power pole",
        "what does lawful good alignment mean in dungeons and dragons",
        "hey all, weird one. ever since the storm last week there's a loud hum at night and my "
        "neighbour says it comes from the grey box up on the pole. what is a transformer? the one "
        "on the pole outside my house buzzes constantly and i can't sleep",
        "where does the attention line go on a business letter",
        "difference between a llama and an alpaca",
    ],
)
def test_a_name_read_in_its_other_sense_is_offered(bundled_index: SearchIndex, query: str) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert result.suggestions, result  # the entry is still offered: an honest "did you mean"


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("ok what actually is a transformer, not the robots", "transformers"),
        ("can someone explain transformers like im 5", "transformers"),
        ("what are guardrails for llms", "guardrails"),
        ("what is the seed in diffusers", "seed"),
        ("llama 3 8b good enough for a discord bot?", "llama"),
    ],
)
def test_the_field_s_sense_near_another_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked, result


def test_the_bundled_entries_carry_their_other_senses() -> None:
    # the data/other-senses tables, read by the glossary (senses77; names no entry: an error)
    senses = {entry.id: entry.other_senses for entry in load_glossary() if entry.other_senses}
    assert len(senses) == 38
    assert senses["llama"] == ("the llama, a south american animal like the alpaca",)


def test_the_sense_is_read_from_the_text_and_its_rest(bundled_index: SearchIndex) -> None:
    semantic = bundled_index.semantic
    assert semantic is not None
    position = bundled_index.positions["transformers"]

    def read(text: str, name: str) -> bool:
        start = text.index(name)
        senses = bundled_index.entries[position].other_senses
        return read_in_other_sense(semantic, senses, position, text, start, start + len(name))

    assert read("what is a transformer on a power pole", "transformer")
    assert not read("what is a transformer model", "transformer")
    assert not read("what is a transformer", "transformer")  # the rest says nothing of its own
    assert not read_in_other_sense(semantic, (), 0, "what is rag", 8, 11)  # no senses


def test_a_rest_saying_too_little_is_not_judged() -> None:
    assert says_enough("what is a transformer on a power pole", 10, 21)
    assert not says_enough("what is llama and who made it", 8, 13)  # "made"
    assert not says_enough("eli5 what attention is pls", 10, 19)  # "pls": "eli5" has a digit


@pytest.mark.parametrize(
    "query",
    [
        "python, the language not the snake",  # the sense written to be denied
        "we serve llama with vllm. what is a kv cache",  # other entries named
        "what is llama and who made it",  # the rest says too little
    ],
)
def test_the_guards_keep_the_card(bundled_index: SearchIndex, query: str) -> None:
    assert bundled_index.search(query).entry is not None
