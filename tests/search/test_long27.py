"""Probes for task long27: long descriptions (35 words and more) as people type them into
/define, without the entry's name, and everyday stories of that length. long27_probes.tsv was
written from the entry ids and general knowledge, after reading the search code but not the
entry text the probes target nor any relevance row of theirs; it was not edited after it was
first run. The rule it was written for (a long description's clauses agreeing on the meaning's
first make its card) was measured and reverted: bench/results/semantic.md "long27"."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Unless noted, no card: the meaning's first (named) leads
# by less than `fusion.LONG_LEAD`. Temperature's setting text is its card since pairs61's lines.
STILL_FAILING = {
    # Decoding Strategy first, Beam Search third
    "instead of always taking the single most likely next word, the decoder keeps a handful of the"
    " best partial sentences at every step, extends each of them, scores all the extensions and"
    " keeps the top few again, and finally returns the highest scoring complete sentence",
    # Mixture of Experts first (lead 0.02, MLP second)
    "the feed forward part of each layer is replaced by many separate smaller networks and a little"
    " router picks two of them for every token, so the model has a huge total number of weights"
    " but each token only pays for a small fraction of them",
    # GGUF first, Quantization not among the first four
    "we store the model's numbers with fewer bits, going from sixteen bit floats down to eight or"
    " even four bit integers, which makes the file several times smaller and lets it run on an"
    " ordinary laptop, at the cost of a little accuracy on hard tasks",
    # Reranking first (lead 0.06)
    "after the first fast search pulls back a hundred or so candidate passages, a slower and more"
    " accurate model looks at the question together with each passage and reorders them so the"
    " truly relevant ones end up at the top before we pass a few to the llm",
    # Training Step first, Epoch a hair behind
    "one complete pass of the training loop over every single example in the dataset; people"
    " usually train for several of these in a row and look at the validation numbers after each"
    " one to decide when it is time to stop",
    # a wrong card: Guardrails (what the attackers test) first by 0.15
    "before launch we hired a group of people whose whole job for two weeks was to attack the"
    " assistant, trying every trick they could think of to make it say harmful things or leak"
    " private data, and they wrote up every failure they found for the team",
    # ("you keep the original big weight matrices frozen ...": carded since asked40)
    # Output Head offered first: the story of the loop names its parts
    "the model reads the whole conversation so far and outputs a score for every word in its"
    " vocabulary, we turn those scores into chances and pick the next word, append it, and do the"
    " same thing again and again until it stops",
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
