"""Probes for task bar57 (issue #12): a middling-length description of an entry that writes none
of its names gets its card; a near miss from gaming, homework, cloud, web, crypto or everyday life
sharing a word with an entry gets none (`fusion.unnamed_lead`'s bar). "what's a X, remark": X's
card where the remark is the field's, a mention before it too; none where the remark is
everyday life (`SearchIndex._asked_first_named`: all three strict xfails). bar57_probes.tsv was written from entry titles
and general knowledge, before reading the rows bar56's dump names, the entries' text or the
search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here. "what's a X" asks about the name outright, and neither the
# whole text nor the remark read alone is far enough from the field for `_unless_everyday`
# (Token: the meaning's third at 0.45; Step: its first at 0.53): the text searched without the
# asked-first rule cards them too. The seed's remark is: `_unless_everyday` on the asked-first
# card made it an offer, but cost a held-out right card with no tuning row moved (coordinator's
# read of bar57's B alone, relevance-main57 vs b57v): not shipped.
# The HBM description writes "gpu" (a name: no unnamed text) and gets Video RAM's card, the
# meaning's second at 0.69 against HBM's 0.70, HBM offered first.
STILL_FAILING: set[str] = {
    "what's the memory stacked right beside the gpu die that gives it huge bandwidth",
    "what's a token, my bus pass needs one",
    "what is a step, my fitness watch says i did 9000 today",
    "what's a seed, the ones i planted last week haven't sprouted",
}
PROBES = ProbeFile("bar57_probes.tsv", STILL_FAILING)

test_a_described_entry_gets_its_card = PROBES.test("described", expect=the_asked_card)
test_a_near_miss_gets_no_card = PROBES.test("none", expect=no_card)
test_a_name_asked_first_gets_its_card = PROBES.test("asked", expect=the_asked_card)
test_a_name_asked_first_in_its_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"described": 24, "none": 16, "asked": 5, "everyday": 3}
)


# Tuning rows (dev4, dev6, dev11) main offers first without a card: the meaning's first at
# cosine 0.61-0.64, 0.15-0.31 ahead, under the bar bar56 set (0.66). bar57's variant (0.6 for a
# text leaning to the field) carded them but failed ship rule v3 on held out (wrong share 4.32%
# -> 4.34%) and was reverted: strict xfails (bench/results/semantic.md "bar57"). The first is
# carded since agree59's `words_agree` (the words and the meaning agreeing on it, 0.1 ahead).
_LOWER_BAR = pytest.mark.xfail(
    strict=True, reason="the unnamed leader's bar stays 0.66 (bar57 reverted)"
)


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        (
            "changing one stored fact inside a network's weights, like who won an election,"
            " without touching everything else",
            "knowledge-editing",
        ),
        pytest.param(
            "euler a vs dpm++ 2m karras in comfy, what even are those",
            "scheduler",
            marks=_LOWER_BAR,
        ),
        pytest.param(
            "ValueError: Input length of input_ids is 9000, but max_length is set to 4096  so is"
            " that how much it can read at once?",
            "context-windows",
            marks=_LOWER_BAR,
        ),
    ],
)
def test_an_unnamed_leader_from_the_lower_bar_is_the_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")


@pytest.mark.parametrize(
    "query",
    [
        # dev2: Throughput first at 0.62, 0.18 ahead; the text's cosine to the field 0.12
        "minecraft server keeps lagging with 10 players",
        # everyday2: Over-Refusal at 0.65, 0.32 ahead; to the field 0.13
        "did anyone write down the homework for chem, i think its chapter 7 questions 1-12",
    ],
)
def test_a_text_leaning_away_from_the_field_gets_no_unnamed_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry is None
