"""Probes for task context69 (issue #12): an entry named only in a clause that sets the scene
("when using rag, ...", "after fine-tuning, ...", "when generating with X, ...") or as the object of
"how do i make X do Y", while the asked clause describes another entry, gives way to that entry;
where the same frames ask about the named entry its card stays. context69_probes.tsv was written
from entry titles and general knowledge, before reading the tuning rows, the entries' text or
bot/search."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import scene_only

from .probe_files import (
    ProbeFile,
    the_asked_card,
    the_asked_card_or_first_offers,
    the_asked_first_offer_the_written_behind,
)

# Probes that fail on this branch and on main 7bac72f4 alike: strict expected failures, so one
# that starts passing fails the suite and is moved out of here. Where the meaning ranks the scene's
# name first ("how do i make pytorch compute the gradients ...", "using hugging face transformers,
# which file format ..."), `scene_only` leaves its card: "how do i make X do Y" is not read at all
# (the frame took "how do i make llama.cpp run a model on my laptop cpu" from llama.cpp). The
# asked ones are other causes: a scene's name carded over a name the asked clause writes ("when
# serving with vllm, what exactly is paged attention"), or a neighbour by meaning.
STILL_FAILING: set[str] = {
    "using hugging face transformers, which file format stores weights without being able to run"
    " code on load",
    "when training with dpo, what divergence keeps the policy close to the reference model",
    "how do i make rag ignore instructions hidden inside the retrieved documents",
    "how do i make pytorch compute the gradients for me automatically",
    "after fine-tuning, what is lora for",
    "if i turn on the kv cache, why does it take so much gpu memory",
    "when training with rlhf, why do we need human preference labels at all",
    "if i set temperature to 2, why does the output turn into random nonsense",
}
PROBES = ProbeFile("context69_probes.tsv", STILL_FAILING)

test_a_scene_name_gives_way_to_the_asked_entry = PROBES.test(
    "scene", expect=the_asked_card_or_first_offers
)
test_a_named_entry_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"scene": 28, "asked": 22})


# Cases written after the code (not blind). The tuning rows the rule takes: the name written only
# in the scene, the meaning's second or lower, is offered behind the ranking's first
# (`SearchIndex._scene_name_offered`); each was that name's card on main 7bac72f4.
@pytest.mark.parametrize(
    ("query", "name", "meant"),
    [
        ("when meta 'releases llama' what is actually in those 15gb files", "llama", "weights"),
        (
            "when samplers are 'deterministic' like ddim, what kind of math thing are they solving?",
            "scheduler",
            "ordinary-differential-equation",
        ),
    ],
)
def test_a_name_only_in_the_scene_is_offered_behind_the_asked(
    bundled_index: SearchIndex, query: str, name: str, meant: str
) -> None:
    the_asked_first_offer_the_written_behind(bundled_index.search(query), meant, name)


# The same frame where the meaning ranks the name first: the card stays.
@pytest.mark.parametrize(
    ("query", "asked"),
    [
        (
            "when doing speculative decoding, why does a small draft model speed things up",
            "speculative-decoding",
        ),
        (
            "when prompting with chain-of-thought, why does thinking step by step help on math problems",
            "chain-of-thought",
        ),
    ],
)
def test_a_scene_name_the_meaning_ranks_first_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")


@pytest.mark.parametrize(
    ("before", "after", "scene"),
    [
        ("when i need ", " how does the library stop the model", True),
        ("when ", " are deterministic like ddim what kind of math", True),
        ("so after ", " returns 100 passages how do i pick the best 5", True),
        ("using ", " which file format stores weights", True),
        ("when ", " how do i limit choices", True),
        ("when i need ", " the library stops the model", False),  # nothing asked after it
        ("when should i use ", " over fine tuning", False),  # the opener asks
        ("when a ", " generates an image how does it", False),  # the name at work in the scene
        ("how do i make ", " answer only in json", False),  # not this frame
        ("in ", " what is the critic", False),  # "in X": `in_passing`, part69's
        ("when we run it on two gpus with ", " what is", False),  # too far from the opener
        ("", " what is it", False),
    ],
)
def test_the_scene_is_read_before_the_name(before: str, after: str, scene: bool) -> None:
    assert scene_only(before, after) is scene


# Hostile input: the opening is anchored and its lead bounded, the question words found by a
# linear search (no timing asserted here).
@pytest.mark.parametrize(
    ("before", "after", "scene"),
    [
        ("when " + "x" * 4000 + " ", " how" * 1000, True),
        ("when " * 800, " how", False),
        ("when i " + "need " * 800, " how", False),
    ],
)
def test_only_the_opening_before_the_name_is_read(before: str, after: str, scene: bool) -> None:
    assert scene_only(before, after) is scene
