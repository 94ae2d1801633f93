"""Probes for task question29: a chat question whose scene names one entry, then asks which or
what kind of thing does something ("our rag bot pulls chunks out of the vector database. what
stage puts the best ones on top?"); the scene's name says where, it is not what is asked
(issue #12). question29_probes.tsv was written from entry titles and general knowledge, not
from the entries' text nor any slice's rows."""

from __future__ import annotations

from bot.search.query import asks_kind

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers


def the_scene_not_carded(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """No card for the scene's name; the asked entry the card or among the first offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# No card for the scene's name any more, but the meaning ranks other entries before the asked
# one: Large Language Model alone offered (its "llm" is written in the question), Guardrails and
# Large Language Model before Temperature, Scheduler and Diffusers before U-Net.
STILL_FAILING = {
    (
        "our rag bot pulls fifty chunks out of the vector database. what stage puts the best "
        "ones on top before the llm reads them?"
    ),
    (
        "our chatbot built on gpt-2 keeps repeating the same phrases. which setting makes its "
        "word choice more random?"
    ),
    "with stable diffusion in diffusers, which network actually predicts the noise at every step?",
    # wrong49's `_asked_name_offered`: 15 words, the meaning puts LoRA & QLoRA 0.13 ahead of
    # QLoRA, so QLoRA is offered second, not carded (its cost, bench/results/semantic.md)
    "my friend swears by qlora. what technique is qlora and why does it save memory?",
}
PROBES = ProbeFile("question29_probes.tsv", STILL_FAILING)

test_the_scene_s_name_is_no_card = PROBES.test("kind", expect=the_scene_not_carded)
test_a_scene_s_own_name_asked_keeps_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"kind": 10, "own": 4})


def test_a_kind_is_asked_unless_the_question_points_back() -> None:
    assert asks_kind("what component am i swapping")
    assert asks_kind("which rl algorithm")
    assert asks_kind("what's the integer input telling the unet where it is")
    assert asks_kind("what kind of reward did it train against")
    assert asks_kind("what format should i convert the weights to")
    assert not asks_kind("what technique is that")  # the scene's own thing
    assert not asks_kind("which knobs trade speed for recall in that graph index")
    assert not asks_kind("what is rlhf")
    assert not asks_kind("which one for 8 gpus")
    assert not asks_kind("how does it skip redoing that part")
