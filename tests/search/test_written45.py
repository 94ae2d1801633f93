"""Probes for task written45: a text that pastes a log or error line ("Epoch 12: ...",
"sampler: ...", "ALERT: ...") writing one entry's name while it asks about another; the name
in the pasted line is no card (issue #12, passing41's cause table row 5). written45_probes.tsv
was written from entry titles and general knowledge, not from the entries' text nor any slice's
rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import pasted_label, pastes_log

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers


def the_pasted_name_not_carded(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """No card for the name the pasted line writes; the asked entry the card or among the
    first offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


# Probes that fail on this branch (and on main before it): strict expected failures, so one
# that starts passing fails the suite and is moved out of here.
# The rule (`pasted_label`) makes "Epoch 12: lr=3e-4 ..." pass; the rest are in other shapes or
# the meaning does not put the asked entry among the first offers.
# A name in the pasted line carded (Epoch, Step, Docker, PyTorch for "torch.cuda...") or the
# asked entry not among the first offers (overfitting, classifier-free guidance).
# Own probes: the pasted line's other words lead (Video RAM for "CUDA out of memory"; "ppl"
# offered third; "sampler: ... temperature=1.4": Scheduler on main, here no card and
# Temperature offered first). The Docker line passes with wrong49's `_asked_name_offered`.
STILL_FAILING = {
    "Epoch 4: train loss 0.21, val loss 1.87 and climbing, what is happening to my model?",
    "sampler: euler a, steps: 30. the images ignore my prompt, which knob makes them follow it more?",
    "torch.cuda.OutOfMemoryError on a 100k token prompt, what stores the keys and values of every earlier token?",
    "Epoch 5 | train acc 99% | val acc 61%, what's the name for this?",
    "step 4000: loss spiked to 9.8 then nan, what extra loss term keeps the logits from blowing up?",
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB, what is cuda anyway?",
    "sampler: top_p=0.9 temperature=1.4 and the output is gibberish, what does the temperature do?",
    "eval ppl 12.4 on wikitext, what does ppl measure?",
}
PROBES = ProbeFile("written45_probes.tsv", STILL_FAILING)

test_a_pasted_name_is_no_card = PROBES.test("pasted", expect=the_pasted_name_not_carded)
test_a_pasted_name_asked_keeps_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"pasted": 15, "own": 11})


def test_a_pasted_line_and_its_labels_are_read() -> None:
    assert pastes_log("Epoch 12: lr=3e-4 grad_norm=143.2, what caps the gradients?")
    assert pastes_log("ALERT: p99 above 2s, what is the target called?")
    assert pastes_log("RuntimeError: CUDA out of memory. what is cuda?")
    assert pastes_log("sampler: dpmpp_2m, what does it do?")
    # a definition or a quote is no log line: no number nor setting after the colon
    assert not pastes_log("simpo: no reference model, length normalized reward")
    assert not pastes_log("qlora = lora on top of a 4bit frozen base model?")
    assert not pastes_log("tweet: 'custom silicon beats GPUs'. what is custom silicon?")
    # a label: a value after it, or the rest of a code identifier
    assert pasted_label("Epoch 12: train_loss=0.08 is this bad?", "epoch")
    assert pasted_label("ALERT: objective p95 latency < 800ms, what is it?", "latency")
    assert pasted_label("eval: pass@1=0.42 pass@10=0.71 why?", "eval")
    assert pasted_label("llama_model_load: error loading model, which program?", "llama")
    # the line's subject, or the name written plainly again, is no label
    assert not pasted_label("WARNING: KV cache is full, what is being evicted?", "kv cache")
    assert not pasted_label("Epoch 3/10 in the log, what is an epoch exactly?", "epoch")
    assert not pasted_label("ALERT: error rate 5%, what is it?", "latency")  # not written


# Texts of my own in the rule's shape (not probes: written after reading the code): a card for
# the label's name on main, no card for it here.
@pytest.mark.parametrize(
    ("query", "label"),
    [
        ("Epoch 7: train_loss=0.05 val_loss=2.3, should i be worried?", "epoch"),
        (
            "WARN: latency=950ms on /v1/chat, what target should we promise?",
            "latency",
        ),
        ("eval: pass@1=0.31 pass@5=0.58, why does the second one go up so much?", "llm-evaluation"),
    ],
)
def test_a_label_of_a_pasted_line_is_no_card(
    bundled_index: SearchIndex, query: str, label: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id != label, result
    assert label in [s.id for s in result.suggestions], result  # still offered
