"""Probes for task near36: long descriptions (40-60 words) of entries that have a close neighbour,
as people type them into /define without the entry's name, and everyday stories of that length.
near36_probes.tsv was written from the entry titles and general knowledge, before reading the
entry text these probes target, any relevance row of theirs or the long-description code; it was
not edited after it was first run. On main 013676a 8 of 13 long descriptions get their card and
5 of 5 stories none. near36's near agreement (`fusion.near_agreed`, 71dc9d4) carded Over-Refusal
too and was reverted: one held-out wrong card more (bench/results/semantic.md "near36")."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. The hidden-web-text story (not read as a long description:
# both stages agree at cosine 0.687, 0.167 ahead) is Prompt Injection's card since bar56's
# `fusion.unnamed_lead`.
STILL_FAILING = {
    # the two stages agree, but the meaning's first at cosine 0.534 (under `LONG_COSINE`),
    # Liveness second by 0.012: Prefix Caching offered first
    "we have this huge system prompt that every single request starts with, like three thousand"
    " tokens of rules, and somebody on the infra team set the server up so it keeps the "
    "computed work for that shared opening part and reuses it across users instead of redoing "
    "it every time, which cut our wait for the first word a lot",
    # near agreement: Jailbreak the meaning's first (0.643), Over-Refusal its second 0.018
    # behind and the description stage's first by 42 points; near36's rule for it gave this card
    # but was reverted (one held-out wrong card more): offered first
    # the two stages agree, but at cosine 0.523 (under `LONG_COSINE`), Appropriate
    # Reliance second by 0.006: offered first
    # the description stage's clear first (74.6, by 28.5) is not among the meaning's
    # first four (Next-Token Prediction 0.619, Teacher Forcing 0.596): not offered
    "during training each position in the sentence is only allowed to look at the words before "
    "it and never the ones after, otherwise it would just peek at the answer it is supposed to "
    "predict, so the scores for later positions get blanked out before they are turned into "
    "weights",
}
PROBES = ProbeFile("near36_probes.tsv", STILL_FAILING)

test_a_long_description_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_an_everyday_story_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"long": 13, "none": 5})
