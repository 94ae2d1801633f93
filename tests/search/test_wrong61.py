"""Probes for task wrong61 (issue #12): fewer wrong and off-topic cards. A text from cloud, web,
crypto or an everyday trade that shares a word with an ML term ("a kernel of corn", "a token for
the subway", "the transformer on the utility pole") gets no card; a description near the shapes
that draw wrong cards keeps its right card. wrong61_probes.tsv was written from entry titles and
general knowledge, before reading the tuning rows, the entries' text or the search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here: RMSprop's card for AdamW's decoupled decay, Token's for a context
# window "counted in tokens" (the unit written, read as the name asked), Tokenization offered, not
# carded. (Logits' raw-scores description, offered on wrong61's branch, is carded with pairs61's
# Logits and Softmax lines.)
STILL_FAILING: set[str] = {
    "shrinking the weights a little every step, kept apart from the gradient update, in that"
    " popular optimizer",
    "splitting text into the subword pieces the network actually reads",
    "how much text the model can look at at once, counted in tokens",
}
PROBES = ProbeFile("wrong61_probes.tsv", STILL_FAILING)

test_an_off_topic_text_sharing_a_word_gets_no_card = PROBES.test("none", expect=no_card)
test_a_near_miss_description_keeps_its_card = PROBES.test("kept", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"none": 27, "kept": 19})


# Tuning rows (dev11, dev15) that are wrong cards: the name asked about is one of three or more
# entries' names written and the meaning ranks it nowhere in its ten. wrong61's
# `ASKED_AMONG_NAMES` offered them (held out unchanged) but took "is llama's tokenizer byte level"'s
# Tokenization card (test_questions7): reverted by the coordinator, kept as strict xfails.
@pytest.mark.xfail(strict=True, reason="ASKED_AMONG_NAMES reverted")
@pytest.mark.parametrize(
    ("query", "offered"),
    [
        (
            "A tensor with all NaNs was produced in VAE. Retrying in full precision  what is that"
            " step for?",
            "training-step",
        ),
        (
            "our box is a plain xeon with zero gpus, is inference on that even viable?",
            "llm-inference",
        ),
    ],
)
def test_an_unranked_name_among_several_is_offered(
    bundled_index: SearchIndex, query: str, offered: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert offered in [s.id for s in result.suggestions[1:3]], result


# Right cards (dev4, dev19) for a name among three written that the meaning ranks low but ranks:
# kept.
@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("is rag dead now that context windows are 1M tokens?", "rag"),
        (
            "what's the tokenization thing people keep mentioning when api prices are per token?",
            "tokenization",
        ),
    ],
)
def test_a_ranked_name_among_several_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")
