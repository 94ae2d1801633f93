"""Probes for task long27: long descriptions (35 words and more) as people type them into
/define, without the entry's name, and everyday stories of that length. long27_probes.tsv was
written from the entry ids and general knowledge, after reading the search code but not the
entry text the probes target nor any relevance row of theirs; it was not edited after it was
first run. Unit tests for reading a long description by its clauses (`query.long_clauses`,
`fusion.long_lead`): long27's rule, reverted at a 0.5 floor, re-applied by long29 at the
cautious floor `LONG_COSINE` fixed before its held-out reading (bench/results/semantic.md)."""

from __future__ import annotations

from bot.search.fusion import CLAUSES_COSINE, LONG_CLAUSES, LONG_COSINE, LONG_LEAD, long_lead
from bot.search.query import long_clauses

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Unless noted, no card: the meaning's first (named) leads
# by less than `LONG_LEAD` and fewer than `LONG_CLAUSES` clauses put it first.
STILL_FAILING = {
    # Decoding Strategy first, Beam Search third
    "instead of always taking the single most likely next word, the decoder keeps a handful of the"
    " best partial sentences at every step, extends each of them, scores all the extensions and"
    " keeps the top few again, and finally returns the highest scoring complete sentence",
    # Mixture of Experts first (lead 0.02, MLP second), one clause for it
    "the feed forward part of each layer is replaced by many separate smaller networks and a little"
    " router picks two of them for every token, so the model has a huge total number of weights"
    " but each token only pays for a small fraction of them",
    # GGUF first, Quantization not among the first four
    "we store the model's numbers with fewer bits, going from sixteen bit floats down to eight or"
    " even four bit integers, which makes the file several times smaller and lets it run on an"
    " ordinary laptop, at the cost of a little accuracy on hard tasks",
    # Reranking first (lead 0.06), one clause for it
    "after the first fast search pulls back a hundred or so candidate passages, a slower and more"
    " accurate model looks at the question together with each passage and reorders them so the"
    " truly relevant ones end up at the top before we pass a few to the llm",
    # Training Step first, Epoch a hair behind
    "one complete pass of the training loop over every single example in the dataset; people"
    " usually train for several of these in a row and look at the validation numbers after each"
    " one to decide when it is time to stop",
    # Watermarking first (lead 0.04), one clause for it
    "the generator secretly nudges its word choices toward a hidden statistical pattern that no"
    " reader would notice, so that later a detector that knows the secret key can check a piece"
    " of text and say with high confidence whether that model wrote it",
    # a wrong card: Guardrails (what the attackers test) first by 0.15
    "before launch we hired a group of people whose whole job for two weeks was to attack the"
    " assistant, trying every trick they could think of to make it say harmful things or leak"
    " private data, and they wrote up every failure they found for the team",
    # Checkpoint offered first (the saved file), LoRA second
    "you keep the original big weight matrices frozen and learn two thin matrices beside each one"
    " whose product is added to it, so only a tiny fraction of the numbers are trained and the"
    " saved file for each task is just a few megabytes",
    # Output Head offered first: the story of the loop names its parts
    "the model reads the whole conversation so far and outputs a score for every word in its"
    " vocabulary, we turn those scores into chances and pick the next word, append it, and do the"
    " same thing again and again until it stops",
    # Sampling offered first, Temperature third
    "a setting you turn up or down before generating: low values make the model pick the safest"
    " likeliest words every time and repeat itself, high values flatten the odds so it takes more"
    " chances and gets more creative but also more random",
    # Benchmark Contamination offered first: the benchmark in the story
    "the model looks fine on the benchmark but during training it found a loophole in the"
    " scoring, like writing tests that always pass or padding answers with the words the grader"
    " likes, so the number went up while the actual behaviour got worse",
    # Scaling Laws offered first, Fully Sharded Data Parallel second
    "when a model is too big for one machine the training copies each hold only a slice of the"
    " weights, gradients and optimizer state, gathering the full layer they need just before"
    " using it and throwing it away again right after",
}
PROBES = ProbeFile("long27_probes.tsv", STILL_FAILING)

test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_story_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"long": 26, "none": 4})


def test_a_long_description_is_cut_at_punctuation_and_joining_words() -> None:
    text = (
        "every few hundred steps the script saves the weights to disk, so if the machine "
        "crashes we can load one and carry on"
    )
    assert long_clauses(text) == [
        "every few hundred steps the script saves the weights to disk",
        "if the machine crashes we can load one and carry on",
    ]


def test_a_clause_of_one_word_of_its_own_is_not_read_alone() -> None:
    assert long_clauses("the weights are saved to disk, and then, well, sure") == [
        "the weights are saved to disk"
    ]


FIRST, SECOND = 3, 7
CLOSE = [(FIRST, LONG_COSINE + 0.05), (SECOND, LONG_COSINE + 0.04)]


def test_clauses_agreeing_on_the_first_make_its_card_at_a_weak_lead() -> None:
    assert not long_lead(CLOSE)
    assert long_lead(CLOSE, [FIRST, SECOND, FIRST][: LONG_CLAUSES + 1])


def test_clauses_agreeing_on_another_entry_change_nothing() -> None:
    assert not long_lead(CLOSE, [SECOND] * LONG_CLAUSES)


def test_one_clause_for_the_first_is_not_enough() -> None:
    assert not long_lead(CLOSE, [FIRST, SECOND])


def test_clauses_lift_a_first_from_their_own_cosine() -> None:
    assert long_lead([(FIRST, CLAUSES_COSINE), (SECOND, CLAUSES_COSINE)], [FIRST] * LONG_CLAUSES)


def test_clauses_do_not_lift_a_first_under_their_cosine() -> None:
    low = [(FIRST, CLAUSES_COSINE - 0.01), (SECOND, CLAUSES_COSINE - 0.2)]
    assert not long_lead(low, [FIRST] * LONG_CLAUSES)
    assert not long_lead([(FIRST, CLAUSES_COSINE - 0.01)], [FIRST] * LONG_CLAUSES)


def test_a_lead_under_the_long_cosine_needs_its_clauses() -> None:
    assert not long_lead([(FIRST, LONG_COSINE - 0.01), (SECOND, LONG_COSINE - LONG_LEAD - 0.1)])


def test_a_clear_lead_needs_no_clauses() -> None:
    assert long_lead([(FIRST, LONG_COSINE), (SECOND, LONG_COSINE - LONG_LEAD - 0.01)])
