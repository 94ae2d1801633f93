"""Probes for task long34: long descriptions (40 words and more, a scene or an aside) of entries,
as people type them into /define without the entry's name, and everyday stories of that length.
long34_probes.tsv was written from the entry ids and general knowledge, before reading the entry
text these probes target, any relevance row of theirs or the long-description code; it was not
edited after it was first run. Then tests of the rule long34 measured: the description stage's
own first, past the names a long text writes in passing, agreeing with the meaning's first
(`index._described_past_names`)."""

from __future__ import annotations

from bot.search.fusion import DESCRIBED_LEAD
from bot.search.index import _described_past_names
from bot.search.ranking import MATCH_SCORE, MENTION_SCORE, Pool
from bot.search.results import Strategy

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. (Canary String, Safetensors and Thinking Budget failed on
# main: a name written in passing led the lexical pool, so no agreement was read.)
STILL_FAILING = {
    # SwiGLU first (0.593), Sparse Autoencoder second; the description stage on Polysemanticity
    "we took the activations from the middle of the network and trained a second little network,"
    " much wider than the layer, to rebuild them while only letting a handful of its units light"
    " up at once, and each of those units turned out to mean something you could name, like a"
    " feature for French or for code",
    # Membership Inference Attack first (0.691) by 0.097; the description stage a tie (0.1)
    "someone hands you a trained model and a single record, say one patient's file from a"
    " hospital, and you try to work out whether that exact record was part of its training data,"
    " usually by looking at how unusually confident the model is on it compared to records it"
    " never saw",
    # the description stage's first; the meaning's third (Zero Redundancy Optimizer first)
    # still fails
    "instead of updating the weights after every single example we group, say, thirty-two or "
    "sixty-four examples together, average their gradients and take one step, and how many go"
    " into each group decides how much memory the GPU needs and how noisy the steps are",
}
PROBES = ProbeFile("long34_probes.tsv", STILL_FAILING)

test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_story_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"long": 16, "none": 6})

TEXT = "a long text that describes something without asking anything about it at all"


def pool_of(*candidates: tuple[int, float, Strategy]) -> Pool:
    pool = Pool()
    for entry, score, strategy in candidates:
        pool.add(entry, score, strategy)
    return pool


def test_the_description_stages_first_is_read_past_a_name_written_in_passing() -> None:
    pool = pool_of(
        (1, MENTION_SCORE, "match-term"), (2, 57.6, "description"), (3, 44.7, "description")
    )
    assert _described_past_names(pool, TEXT) == 2


def test_no_described_first_within_the_lead_of_the_next_described_entry() -> None:
    second = 57.6 - DESCRIBED_LEAD + 0.1
    pool = pool_of(
        (1, MENTION_SCORE, "match-term"), (2, 57.6, "description"), (3, second, "description")
    )
    assert _described_past_names(pool, TEXT) is None


def test_no_described_first_where_a_lexical_card_stands_or_the_text_asks() -> None:
    carded = pool_of((1, MATCH_SCORE, "match-term"), (2, 57.6, "description"))
    assert _described_past_names(carded, TEXT) is None
    asked = pool_of((1, MENTION_SCORE, "match-term"), (2, 57.6, "description"))
    assert _described_past_names(asked, TEXT + "?") is None
    assert _described_past_names(pool_of((1, MENTION_SCORE, "match-term")), TEXT) is None
