"""Probes for task wrong20: fewer confident wrong cards (issue #12). wrong20_probes.tsv was
written from the entry titles and general knowledge before reading the search code or the
entries' text: a question writing a broad name and asking about a narrower one, or writing the
word that names a narrower entry, or describing one of two neighbours, gets the asked entry's card
or offers it among the first three; a name in another field's sense gets no card; a broad name
asked about keeps its card."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING = {
    "how does latent diffusion use a u-net to remove the noise",  # U-Net not in the first three
    "how does the kv cache shrink with multi-head latent attention",  # KV Cache card
    "what is the patch size in a vision transformer",  # Encoder-Free Multimodal card
    "how many neurons does the human brain have",  # Neuron card
    "what does a vision transformer do with an image",  # Image Patch Token offered first
}
# "can you make me a rubric for grading a history essay" passes since everyday62 (its rest is
# nearer the school setting than to every entry: an offer, no card)
PROBES = ProbeFile("wrong20_probes.tsv", STILL_FAILING)

test_the_asked_entry_is_shown = PROBES.test(
    "two_named", "part_named", "described", expect=the_asked_card_or_first_offers
)
test_another_fields_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_a_broad_name_asked_keeps_its_card = PROBES.test("plain", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"two_named": 12, "part_named": 6, "described": 8, "everyday": 10, "plain": 10}
)


@pytest.mark.xfail(strict=True, reason="a Diffusion Model card: the rule tried was not kept")
def test_a_word_of_a_narrower_title_beside_a_broad_name_offers_the_narrower_first(
    bundled_index: SearchIndex,
) -> None:
    """The broad name is written (Diffusion Model, the question's subject), the narrower entry
    only by a word of its title that the broad one lacks ("timestep"), and the meaning prefers
    the narrower by `NEIGHBOUR_GAP` (dev7's row): an offer, it first, would be no wrong card.
    The rule that did it cost held-out right cards (see wrong20 in bench/results/semantic.md)."""
    result = bundled_index.search("what is the timestep in a diffusion model")
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == ["diffusion-timestep", "diffusion-model"]


@pytest.mark.xfail(strict=True, reason="still a Diffusion Model card: no narrower rule fires")
def test_the_same_with_of_is_offered_too(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("what is the timestep of a diffusion model")
    assert result.entry is None or result.entry.id == "diffusion-timestep", result


def test_a_broad_name_asked_plainly_keeps_its_card(bundled_index: SearchIndex) -> None:
    result = bundled_index.search("what does a diffusion model do")
    assert result.entry is not None, result
    assert result.entry.id == "diffusion-model", result
