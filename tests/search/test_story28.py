"""Probes for task story28: a long question tells a story that names things in passing, then asks
what the thing it describes is called (issue #12). story27 made the written names offers, never
the card; here the thing the story describes must come first: its card, or the first offer, not
a name the story wrote. story28_probes.tsv was written from entry titles and general knowledge,
not from the entries' text nor any slice's rows."""

from __future__ import annotations

from bot.search import SearchIndex, SearchResult

from .probe_files import ProbeFile, the_asked_card


def the_described_first(result: SearchResult, asked: str, written: str) -> None:
    """The asked entry's card, or no card and it the first offer."""
    first = result.entry.id if result.entry else next((s.id for s in result.suggestions), None)
    assert first == asked, result


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
# The meaning of these stories ranks another entry first, with or without the written names:
# Sleeper Agents for refusing harmless requests, RLHF for a reward gamed by length, Mean Time
# Between Failures for a training run that diverged on a GPU cluster, Reinforcement Learning
# with Verifiable Rewards (and PyTorch's description) for GRPO.
STILL_FAILING = {
    (
        "we did rlhf on our assistant and now it refuses harmless stuff like how to kill a "
        "python process or how to shoot a good photo, just because the words sound dangerous. "
        "what do people call that behaviour?"
    ),
    (
        "in our fine-tuning run the policy learned to write really long answers because the "
        "reward model liked length, so the score kept climbing while users hated the answers. "
        "what's the term for that?"
    ),
    (
        "on our gpu cluster the training kept diverging until we started with a tiny learning "
        "rate and raised it slowly over the first thousand steps, then held it and decayed at "
        "the end. what's that schedule called?"
    ),
    (
        "with deepseek we sample sixteen answers per math problem, score each with a checker, "
        "and push up the ones that beat the group's average instead of training a separate "
        "value network. what's that training method called?"
    ),
}
PROBES = ProbeFile("story28_probes.tsv", STILL_FAILING)

test_the_story_s_meaning_comes_first = PROBES.test("story", expect=the_described_first)
test_the_probes_are_the_ones_written = PROBES.counted({"story": 10})


def test_a_story_its_meaning_reads_clearly_is_carded(bundled_index: SearchIndex) -> None:
    """Its written names set aside, the meaning leads as a long description's must
    (`fusion.long_lead`): the card, though the meaning of the whole puts AI Agents first."""
    query = (
        "i wrote an agent loop in python where the model first writes down its thinking, then "
        "picks a tool, reads what the tool returned and thinks again before the next action. "
        "is there a name for that pattern?"
    )
    the_asked_card(bundled_index.search(query), "reasoning-and-acting", "python")
