"""Probes for task file56 (issue #12): "what's a X file" for a format the glossary names gives
its card, and for one it does not, no card; a pasted log, code or config line before a question
about something else gives no card but the asked one; a pasted line alone, or from outside the
field, no card. file56_probes.tsv was written from entry titles and general knowledge, before
reading any slice's rows or the search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import asked_first, asks_nothing, file_named, pastes_log

from .probe_files import (
    ProbeFile,
    no_card,
    no_card_but_the_asked,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# "dockerfile" is one word, not a name before "file"; ".npy" names no entry (NumPy's format).
FILE_FAILING = {"what is a Dockerfile", "what's an .npy file"}
NOFILE_FAILING: set[str] = set()
# The line is no log line `pastes_log` reads (a printed dict's second key, "RuntimeError: ..."
# is, but the meaning reads the question as Video RAM's) or code: Loss's card for the overfitting
# question, Video RAM's for the batch size's and the KV cache's.
NO_WRONG_CARD_FAILING = {
    "{'loss': 0.81, 'learning_rate': 1.8e-05, 'epoch': 0.4} how do i know it is not just "
    "memorising the training set?",
    "RuntimeError: CUDA error: out of memory -- would a smaller batch size help?",
    'llm = LLM(model="mistral-7b", gpu_memory_utilization=0.95) what is the cache that eats all '
    "that memory?",
}
# and the asked not among the first three offers (Learning Rate, Epoch, Teacher forcing for the
# loss question)
SHOWN_FAILING = NO_WRONG_CARD_FAILING | {
    "global_step=1200, epoch=0.4, loss=2.13 why is the loss still so high this far in?",
}
# An out-of-memory line with no level or exception's name first is no log line `pastes_log`
# reads (Video RAM's card); "Saving checkpoint to ..." writes Checkpoint plainly (its card).
BARE_FAILING = {
    "CUDA out of memory. Tried to allocate 2.00 GiB; 22.50 GiB already allocated; 1.2 GiB free "
    "VRAM",
    "Saving checkpoint to ./out/checkpoint-500",
}
OFFTOPIC_FAILING: set[str] = set()

FILE = ProbeFile("file56_probes.tsv", FILE_FAILING)
NOFILE = ProbeFile("file56_probes.tsv", NOFILE_FAILING)
NO_WRONG = ProbeFile("file56_probes.tsv", NO_WRONG_CARD_FAILING)
SHOWN = ProbeFile("file56_probes.tsv", SHOWN_FAILING)
BARE = ProbeFile("file56_probes.tsv", BARE_FAILING)
OFFTOPIC = ProbeFile("file56_probes.tsv", OFFTOPIC_FAILING)

test_a_named_file_format_is_its_card = FILE.test("file", expect=the_asked_card)
test_an_unknown_file_format_gives_no_card = NOFILE.test("nofile", expect=no_card)
test_a_pasted_line_gives_no_wrong_card = NO_WRONG.test("asked", expect=no_card_but_the_asked)
test_a_pasted_line_shows_the_asked = SHOWN.test("asked", expect=the_asked_card_or_first_offers)
test_a_pasted_line_alone_gives_no_card = BARE.test("bare", expect=no_card)
test_an_offtopic_paste_gives_no_card = OFFTOPIC.test("offtopic", expect=no_card)
test_the_probe_file_is_whole = FILE.counted(
    {"file": 15, "nofile": 7, "asked": 6, "bare": 4, "offtopic": 4}
)


@pytest.mark.parametrize(
    ("query", "meant"),
    [
        # dev19's shape E after reading its rows (Hugging Face Hub's card on main d8c5eaf6)
        ("what's a model card, every hugging face repo has one", "model-card"),
        ("what is rag, our vendor keeps saying it", "rag"),
        ("what's an epoch? the notebook prints it every few minutes", "epoch"),
    ],
)
def test_a_name_asked_before_a_remark_is_its_card(
    bundled_index: SearchIndex, query: str, meant: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == meant, result


def test_file_named_reads_the_name_before_file() -> None:
    assert file_named("safetensors file") == "safetensors"
    assert file_named("gguf files") == "gguf"
    assert file_named("lora adapter file") == "lora adapter"
    assert file_named("file") is None  # no name before it
    assert file_named("dockerfile") is None  # one word
    assert file_named("file format of gguf") is None  # not the last word


def test_asked_first_reads_the_name_set_apart() -> None:
    assert asked_first("what's a model card, every hugging face repo has one") == "model card"
    assert asked_first("what's backend.ai? it keeps coming up") == "backend ai"
    assert asked_first("what is lora") is None  # nothing set apart after it
    assert asked_first("what's a model card?") is None  # no remark after it
    assert asked_first("so, what is lora, and why") is None  # not the text's start


def test_asks_nothing_reads_a_question_anywhere() -> None:
    assert asks_nothing("epoch=3 step=1200 loss=2.31")
    assert asks_nothing("WARNING: KV cache is full")
    assert not asks_nothing("torch.OutOfMemoryError on my 3060, which memory is full")
    assert not asks_nothing("reward = 1 if the tests pass. is there a name for that")
    assert not asks_nothing("epoch=3 step=1200?")


def test_pastes_log_reads_a_setting_number_and_a_printed_dict() -> None:
    assert pastes_log("global_step=1200, epoch=0.4, loss=2.13")
    assert pastes_log("{'loss': 0.81, 'epoch': 0.4}")
    assert not pastes_log("a = b then what")  # no number
    assert not pastes_log("we use epoch 3 of the checkpoint")  # no setting
