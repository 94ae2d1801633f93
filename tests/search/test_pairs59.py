"""Probes for task pairs59 (issue #12, cause57's cause 2): a description or a question about
one side of a near pair the meaning confuses (RMSprop beside Adam, Seed beside Temperature, OCR
beside Visual Encoder, RLAIF beside RLHF, Tool beside Function Calling, Continued Pretraining
beside Fine-Tuning, ASIC beside TPU, PEFT beside LoRA, Datasheets for Datasets beside Dataset,
Softmax beside Logits, Attention Head beside Multi-Head Attention), naming neither. The task mends
the content (data/: "asked as" lines on both sides, a summary where it blurs them), not a rule:
the asked entry's card, or no card and it offered ahead of its neighbour among the first three;
never the neighbour's card. pairs59_probes.tsv was written from entry titles and general
knowledge before opening the entries' text or any slice's rows."""

from __future__ import annotations

from bot.search import SearchResult

from .probe_files import ProbeFile, not_the_written_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Main (a1a8fcf4) passes 40 of 44 (30 of them cards), this
# branch 40 (33 cards): two fail on both (the dataset question offers neither side; Layer Norm's
# card for the logits question); RMSprop's description went from behind Adam to its card, and
# fine-tuning's question from nothing offered to its card; two went from first offer to second:
# the RLHF description behind RLAIF (whose new "its rankings train the reward model" line it
# meets) and the multi-head question behind Attention Head (its new "own attention pattern").
AHEAD_FAILING: set[str] = {
    "paid annotators rank pairs of answers, a reward model learns their taste, then ppo tunes the"
    " chat model",
    "what do you call the set of records you feed the model during training?",
    "what are the unscaled outputs of the final linear layer called before any normalisation?",
    "why does the transformer compute several attention patterns in parallel and then join them?",
}
WRITTEN_FAILING: set[str] = set()
AHEAD = ProbeFile("pairs59_probes.tsv", AHEAD_FAILING)
WRITTEN = ProbeFile("pairs59_probes.tsv", WRITTEN_FAILING)


def the_asked_ahead(result: SearchResult, asked: str, written: str) -> None:
    """Its card, or no card and it among the first three offers, before the neighbour."""
    if result.entry is not None:
        assert result.entry.id == asked, result
        return
    offered = [s.id for s in result.suggestions[:3]]
    assert asked in offered, result
    assert written not in offered[: offered.index(asked)], result


test_the_asked_side_is_shown_ahead = AHEAD.test("description", "question", expect=the_asked_ahead)
test_never_the_neighbours_card = WRITTEN.test(
    "description", "question", expect=not_the_written_card
)
test_the_probes_are_the_ones_written = AHEAD.counted({"description": 22, "question": 22})
