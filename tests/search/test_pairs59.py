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
# the suite and is moved out of here. The content measured (59 lines, lists trimmed to 13) was
# reverted on this branch (bench/results/semantic.md "pairs59"): these are main's four failures
# less the fine-tuning question, ahead since pairs61's lists (RMSprop offered behind Adam; the
# dataset question offers neither side; Layer Norm's card for the logits question). With that content
# 40 of 44 passed too (33 cards against 30): RMSprop's and Fine-Tuning's passed, the RLHF
# description fell behind RLAIF and a multi-head question behind Attention Head.
AHEAD_FAILING: set[str] = {
    "the optimizer that divides each gradient by a running average of its recent squared size,"
    " with no momentum term",
    "what do you call the set of records you feed the model during training?",
    "what are the unscaled outputs of the final linear layer called before any normalisation?",
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
