"""Probes for task names75 (issue #12): entry names as people write them in chat, run together
("unet", "kvcache"), spaced ("layer norm"), clipped ("temp", "ckpt"), misspelt and inflected,
get their card; the same short writings in another sense ("temp files", "ctx in go", "a quant at
a hedge fund") get none. names75_probes.tsv says when and how they were written. The one rule
kept, `SearchIndex._chat_names_spelled`: the meaning reads a question's subject written run
together or clipped as the glossary spells it (bench/results/semantic.md, "names75")."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.index import _clipping

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    # a part the subject has is what the meaning reads asked ("skip connections": Residual Stream)
    "why does unet have skip connections",
    # offered, not carded: the meaning leads with a neighbour of the name
    "how big does the kvcache get for a 70b model",
    "my learningrate is too high i think",
    "what is lora model",
    "what are the transformer's attention heads",
    "what temp do you run llama at for coding",
    # two names: the comparison's sides are offered
    "should i use topp or temperature",
    # a name run together with a word after it: fuzzy, not the name
    "what's a mixtureofexperts model",
    # the text leans off the field and "temp" is a plain word: an honest "no entry"
    "what temp should i use",
    # no subject read: the name stays as written for the meaning, which goes nowhere
    "my ckpt won't load",
    # the setting's name ("llm evals", "adamw") is carded over the clipped name asked about
    "what's ppl in llm evals",
    "what's a good lr for adamw",
    # "ode sampler" reads as a kind of sampler (Scheduler offered first)
    "what is an ode sampler",
    "what is an sde sampler",
    # a misspelling one letter from a name is offered, not carded
    "what is lamma",
    # an acronym's plural ending in "us": the other number of a key ending "us" is never read
    # (names75 tried `ACRONYM_PLURAL`: tuning 1 : 1, held out the same; reverted)
    "what are tpus",
}
PROBES = ProbeFile("names75_probes.tsv", STILL_FAILING)

test_a_name_written_as_in_chat_gets_its_card = PROBES.test(
    "runtogether", "spaced", "clipped", "misspelt", "inflected", expect=the_asked_card
)
test_an_off_topic_look_alike_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {
        "runtogether": 27,
        "spaced": 20,
        "clipped": 23,
        "misspelt": 17,
        "inflected": 16,
        "offtopic": 24,
    }
)


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        # each failed before `_chat_names_spelled`: the meaning read "temp" and "ckpt" as
        # written, led elsewhere or off the field, and the name was only offered
        ("what temp should i use for code generation", "temperature"),
        ("what temp do you use for a coding assistant", "temperature"),
        ("what ckpt should i use for sdxl", "checkpoint"),
    ],
)
def test_a_clipped_subject_is_read_by_the_meaning_as_its_title(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == asked, result


def test_a_name_in_passing_stays_as_written_for_the_meaning(bundled_index: SearchIndex) -> None:
    """Only the question's subject is spelled: "temp 0.8" in a question about majority voting
    is its setting, as loud to the meaning as its writer made it. Spelling every chat-written
    name made this dev18 row Temperature's card (names75's first try)."""
    query = (
        "sampling 10 solutions at temp 0.8 and going with whichever final number shows up "
        "most, legit method?"
    )
    result = bundled_index.search(query)
    assert result.entry is None or result.entry.id != "temperature", result


@pytest.mark.parametrize(
    ("key", "title", "clipped"),
    [
        ("temp", "temperature", True),
        ("ckpt", "checkpoint", True),
        ("autodiff", "automatic differentiation", True),
        ("reflow", "rectified flow", True),
        ("attention", "attention mechanism", False),  # a word of the title: its head
        ("logit", "logits", False),  # another number, not a clipping
        ("overfit", "overfitting", False),  # more than half its letters
        ("o11y", "observability", False),  # a numeronym, not letters in order
        ("scheming", "deceptive alignment", False),  # another word
    ],
)
def test_a_clipping_is_a_short_run_of_the_title_s_letters(
    key: str, title: str, clipped: bool
) -> None:
    assert _clipping(key, title) is clipped
