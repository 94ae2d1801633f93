"""Probes for task mirror69 (issue #12): "in/with/for/inside/using Y, what is X" where the scene Y
is written first and the asked clause's subject is the whole written name X ("in vllm what is paged
attention"): X's card, as "what is X in Y" already gives. Where the asked clause asks about Y itself
("in vllm what is it for") Y's card stays. mirror69_probes.tsv was written from entry titles and
general knowledge, before reading the tuning rows, the entries' text or bot/search."""

from __future__ import annotations

import pytest

from bot.glossary.keys import normalize
from bot.search import SearchIndex
from bot.search.query import asked_in_setting

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. Main e68714ee passes 32 of 51 (all 17 controls); the branch 39.
# Left, as `_asked_over_setting` only swaps a card of the place written: no card at all (the
# meaning offers the asked name among others: layernorm, u-net, hnsw, function calling, lora, a
# typo "wat is"), or another entry's card the place does not name (mlp for swiglu, vllm for "in
# llm serving/inference", sgd for "in gradient descent"); "with lora, what's the trick" offers
# LoRA alone.
# names77's `_asked_beside_named` (a short text's last clause asking what a name is) mends four:
# swiglu, throughput, the kv cache, the learning rate.
STILL_FAILING: set[str] = {
    "in rag, wat is chunking",
    "inside a transformer block what does layernorm do",
    "in a diffusion model what is the u-net",
    "in vector databases what is hnsw",
    "in ai agents, what's function calling",
    "in fine tuning what is lora 🙂",
    "with peft how does lora work",
    "with lora, what's the trick exactly",
}
PROBES = ProbeFile("mirror69_probes.tsv", STILL_FAILING)

test_the_name_asked_after_its_scene_is_the_card = PROBES.test("named", expect=the_asked_card)
test_the_scene_asked_about_keeps_its_card = PROBES.test("setting", expect=the_asked_card)
test_the_name_asked_before_its_scene_is_the_card = PROBES.test("mirror", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"named": 34, "setting": 12, "mirror": 5})


# Written after the code (not blind): the place written first is read as the place, the name
# after the asking words as the thing asked; the place's entry is offered first.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in vllm what is paged attention", ("paged attention", "vllm")),
        ("with llama.cpp, how does quantization work?", ("quantization", "llama cpp")),
        ("hey in rlhf what does the kl divergence do", ("kl divergence", "rlhf")),
        ("using pytorch what is autograd exactly", ("autograd", "pytorch")),
        ("in latent diffusion, explain the vae", ("vae", "latent diffusion")),
        ("what is paged attention in vllm", ("paged attention", "vllm")),  # the mirror, as before
    ],
)
def test_the_place_written_first_and_the_name_asked_are_read(
    text: str, expected: tuple[str, str]
) -> None:
    assert asked_in_setting(normalize(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "in vllm how fast is it",  # no asked name
        "what is paged attention",  # no place
        "in vllm what is paged attention and why does it save memory",  # more than a name asked
    ],
)
def test_other_shapes_are_not_read(text: str) -> None:
    assert asked_in_setting(normalize(text)) is None


def test_the_place_is_offered_after_the_asked_card(bundled_index: SearchIndex) -> None:
    """Main e68714ee: vLLM's card, no offer."""
    result = bundled_index.search("in vllm what is paged attention")
    assert result.entry is not None, result
    assert result.entry.id == "paged-attention", result
    assert [s.id for s in result.suggestions[:1]] == ["vllm"], result
