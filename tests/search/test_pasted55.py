"""Probes for task pasted55: a question after a pasted log, error, code or config line (issue #12,
"never a confident wrong card"): where the line's identifier is only its setting, no card but
the asked one and the asked as the card or among the first three offers; where it is what is
asked, its card; a pasted line with no question, or from outside the field, no card.
pasted55_probes.tsv was written from entry titles and general knowledge, before reading any
slice's rows or the search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import pasted_in_code, pasted_then_asked

from .probe_files import (
    ProbeFile,
    no_card,
    no_card_but_the_asked,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# The line is no backticked paste nor a log line set off from the question (`pasted_then_asked`
# does not split it): Cross-Entropy's card for the perplexity question, vLLM's ("vllm serve", the
# command itself) for the KV cache's.
NO_WRONG_CARD_FAILING = {
    "loss = F.cross_entropy(out, y) -- my loss sits at 10.8 which is ln of the vocab size, "
    "what's the number you get when you exponentiate it?",
    "vllm serve meta-llama/Llama-3-8B --max-num-seqs 256 --gpu-memory-utilization 0.9 what "
    "is it reserving all that memory for, the keys and values of earlier tokens?",
}
# and the asked not among the first three offers: the line's words lead the meaning (Teacher
# forcing, Epoch for overfitting; Safetensors, Llama for the Hub; Learning Rate, Optimizer,
# PyTorch for gradient clipping; Continuous Batching, Docker for prefill; Causal Mask, Context,
# GPT-2 for tokenization; Teacher forcing, Overfitting, Loss for validation loss).
SHOWN_FAILING = NO_WRONG_CARD_FAILING | {
    "Epoch 3/10 - loss: 0.12 - val_loss: 0.95 and the gap keeps growing, what's going on "
    "with my model?",
    "OSError: model.safetensors not found in repo meta-llama/Llama-3-8B, where do these "
    "model repos live online?",
    "optimizer = torch.optim.AdamW(params, lr=3e-4) the loss goes nan after a few hundred "
    "steps, what caps the size of the gradients?",
    "docker run --gpus all -p 8000:8000 vllm/vllm-openai -- the first token of a long "
    "prompt takes ages, what's the phase that reads the whole prompt called?",
    'tokenizer = AutoTokenizer.from_pretrained("gpt2") why does it split "unbelievable" '
    "into three pieces?",
    "trainer.train() {'loss': 1.23, 'grad_norm': 0.8, 'learning_rate': 2e-05, 'epoch': 0.5} "
    "why does the loss on data it never trained on matter more than this one?",
}
# Cross-Entropy's card for "what are logits" and PEFT's for "what is lora" (the name asked after
# an unsplit code line); Beam Search and AdamW only offered first.
# names77's `_asked_beside_named` (the text's last clause asks what logits are) mends the first.
OWN_FAILING = {
    "generate(input_ids, num_beams=4, max_new_tokens=64) what does keeping four candidate "
    "sequences at once do?",
    "optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1) how is "
    "adamw different from plain adam?",
    'peft_config = LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"]) what '
    "is lora and what does r mean?",
}
# (Epoch's card for a progress line, Video RAM's for an out-of-memory error, nothing asked:
# offers since file56's `SearchIndex._bare_paste_offered`)
BARE_FAILING: set[str] = set()
OFFTOPIC_FAILING: set[str] = set()

NO_WRONG = ProbeFile("pasted55_probes.tsv", NO_WRONG_CARD_FAILING)
SHOWN = ProbeFile("pasted55_probes.tsv", SHOWN_FAILING)
OWN = ProbeFile("pasted55_probes.tsv", OWN_FAILING)
BARE = ProbeFile("pasted55_probes.tsv", BARE_FAILING)
OFFTOPIC = ProbeFile("pasted55_probes.tsv", OFFTOPIC_FAILING)

test_a_pasted_setting_gives_no_wrong_card = NO_WRONG.test("asked", expect=no_card_but_the_asked)
test_a_pasted_setting_shows_the_asked = SHOWN.test("asked", expect=the_asked_card_or_first_offers)
test_the_pasted_name_asked_is_its_card = OWN.test("own", expect=the_asked_card)
test_a_pasted_line_alone_gives_no_card = BARE.test("bare", expect=no_card)
test_an_offtopic_paste_gives_no_card = OFFTOPIC.test("offtopic", expect=no_card)
test_the_probe_file_is_whole = NO_WRONG.counted({"asked": 15, "own": 12, "bare": 4, "offtopic": 9})


@pytest.mark.parametrize(
    ("query", "written"),
    [
        # in pasted55's words, shaped like dev19's rows carded for the line's code on main 6aa0b5d
        (
            "`loss = F.cross_entropy(logits[:, :-1], tokens[:, 1:])` why are the tokens offset by"
            " one here",
            "cross-entropy",
        ),
        (
            "`from vllm.entrypoints.llm import LLM` what's the difference between this and just"
            " calling generate",
            "vllm",
        ),
    ],
)
def test_a_name_only_in_the_pasted_code_is_offered(
    bundled_index: SearchIndex, query: str, written: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert written in [s.id for s in result.suggestions[:3]], result


@pytest.mark.parametrize(
    ("query", "meant"),
    [
        ("`vllm.entrypoints.openai.api_server` crashed with 137, what is vllm even", "vllm"),
        # what is asked, read alone, ranks the name: the line's own library
        (
            "`huggingface_hub.errors.RepositoryNotFoundError: 401` where do these model repos live"
            " online?",
            "hugging-face-hub",
        ),
    ],
)
def test_a_pasted_name_asked_keeps_its_card(
    bundled_index: SearchIndex, query: str, meant: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == meant, result


def test_pasted_then_asked_splits_a_pasted_line_from_the_question() -> None:
    assert pasted_then_asked("`lr=3e-4` where does it come from") == (
        "lr=3e-4",
        "where does it come from",
    )
    assert pasted_then_asked("Epoch 12: train_loss=0.08 val_loss=1.94  is this bad?") == (
        "Epoch 12: train_loss=0.08 val_loss=1.94",
        "is this bad?",
    )
    assert pasted_then_asked("ERROR: disk full -- what now") == ("ERROR: disk full", "what now")
    assert pasted_then_asked("what is `vllm`?") is None  # no line first
    assert pasted_then_asked("`lr=3e-4`") is None  # nothing asked after it
    assert pasted_then_asked("we use vllm  and it is slow") is None  # no log line first


def test_pasted_in_code_reads_where_the_name_stands() -> None:
    assert pasted_in_code("loss = F.cross_entropy(x, y)", "cross entropy")
    assert pasted_in_code("python -m vllm.entrypoints.api_server", "vllm")
    assert pasted_in_code("torch.cuda.empty_cache()", "cuda")
    assert not pasted_in_code("vllm serve llama --port 8000", "vllm")  # the command itself
    assert not pasted_in_code("vllm.entrypoints crashed, restarting vllm", "vllm")  # plainly too
    assert not pasted_in_code("WARNING: KV cache is full", "kv cache")
    assert not pasted_in_code("epoch=0.4", "vllm")  # not written
