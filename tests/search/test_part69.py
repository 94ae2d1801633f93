"""Probes for task part69 (issue #12): a question that names one entry as the setting and asks for
a part, step, stage, kind or property of it ("in rag what step splits the documents", "which part
of a transformer block normalises the activations") is no card of the named entry; the part asked
for is the card or among the first offers. Where the same frame asks about the named entry itself
("in rlhf what is the point", "what role does a transformer block play") its card stays.
part69_probes.tsv was written from entry titles and general knowledge, before reading the tuning
rows, the entries' text or bot/search."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex, SearchResult
from bot.search.query import part_setting

from .probe_files import (
    ProbeFile,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. All fail on main b3ae2e07 too. The part ones: the meaning ranks
# the named setting first (rlhf, latent diffusion, multi-head attention, react, hybrid search,
# transformer block), which `_part_setting_offered` leaves alone: no tuning row shows that the
# setting's card is wrong there (none of the 906 tuning rows with a part word is such a card); or
# the setting is no card at all ("in a diffusion model ...", "in a mixture of experts model ...")
# or another name's ("which layer ...": Layer). The asked ones are other shapes ("in vllm what is
# paged attention": the name asked written after the place; plural "steps", "layers").
STILL_FAILING: set[str] = {
    "which part of a transformer block normalises the activations",
    "which algorithm does the reinforcement learning stage of rlhf use",
    "in rlhf what's the first stage, the supervised one before any rewards",
    "in a diffusion model what's the network that predicts the noise",
    "in latent diffusion which part compresses the image into a latent",
    "in multi-head attention what is each of the heads on its own",
    "which layer of a transformer turns the last hidden state into logits",
    "in a mixture of experts model which piece chooses the experts for each token",
    "in react what's the step where the model calls a tool",
    "in hybrid search what's the keyword half called",
    "what part does rag play in a chatbot",
    "which part of a transformer is the layernorm",
    "in vllm what is paged attention",
    "in rag what is chunking",
    "what stage of training is sft",
    "what are the steps of rlhf",
    "what layers does a transformer block have",
}
PROBES = ProbeFile("part69_probes.tsv", STILL_FAILING)


def the_part_not_the_setting(result: SearchResult, asked: str, written: str) -> None:
    """The entry named as the setting takes no card; the part asked for is shown."""
    not_the_written_card(result, asked, written)
    the_asked_card_or_first_offers(result, asked, written)


test_a_part_of_a_named_entry_is_not_its_card = PROBES.test("part", expect=the_part_not_the_setting)
test_the_named_entry_asked_about_keeps_its_card = PROBES.test("asked", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"part": 31, "asked": 23})


# Written after the code (not blind). The tuning row the rule moves (dev22; main b3ae2e07 offered
# RLHF then pass@k, KL nowhere), and the two probes it takes (main: the setting's card).
@pytest.mark.parametrize(
    ("query", "part", "setting"),
    [
        (
            "in rlhf there's a penalty term... what's kullbak liebler actually measuring",
            "kullback-leibler-divergence",
            "rlhf",
        ),
        (
            "in a vision language model which bit encodes the picture",
            "visual-encoder",
            "vision-language-models",
        ),
        (
            "in clip what is the half that embeds the captions",
            "text-encoder",
            "contrastive-language-image-pretraining",
        ),
    ],
)
def test_the_part_is_offered_ahead_of_its_setting(
    bundled_index: SearchIndex, query: str, part: str, setting: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == [part, setting], result


def test_a_kind_asked_after_in_x_is_the_name_itself(bundled_index: SearchIndex) -> None:
    """dev12's row, the one the first cut moved: "what kind of file is that" asks about GGUF."""
    result = bundled_index.search(
        "the record store's tech guy downloaded a model file that ends in .gguf. what kind of"
        " file is that?"
    )
    assert result.suggestions[0].id == "gguf", result


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("which part of a ", " normalises the activations"),
        ("which algorithm does the reinforcement learning stage of ", " use"),
        ("the stage of ", " that reorders"),
        ("in ", " what's the first stage the supervised one"),
        ("in a ", " which bit encodes the picture"),
        ("in ", " there's a penalty term what's"),
        ("", "'s keyword half"),
    ],
)
def test_a_part_of_the_name_is_read(before: str, after: str) -> None:
    assert part_setting(before, after)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("what are the steps of ", ""),  # the plural asks for the whole
        ("what are the parts of a ", ""),
        ("in ", " what is the point"),
        ("in ", " what is chunking"),
        ("ends in ", " what kind of file is that"),  # a kind after "in X" asks about X
        ("what part does ", " play in a chatbot"),
        ("i read about ", " which part"),
    ],
)
def test_no_part_of_the_name_is_read(before: str, after: str) -> None:
    assert not part_setting(before, after)


def test_a_long_text_is_read_by_its_tail() -> None:
    """The frame before the name is read in its last `COUNTED_TAIL` characters, the one after
    it from its start: a long text around it changes nothing."""
    assert part_setting("of " * 2000 + "which part of a ", " normalises" + " what" * 1000)
    assert not part_setting("which part of a " + "word " * 2000, " normalises")
