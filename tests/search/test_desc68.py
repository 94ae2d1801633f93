"""Probes for task desc68 (issue #12): an entry told without its names, by an everyday analogy
("like a librarian who ..."), by a scene or symptom ("my bot keeps ...") or at length as a chat
story (35-70 words), gets its card; the same shapes from neighbouring fields and everyday life
get none. desc68_probes.tsv was written from entry titles and general knowledge, before reading
the search code, the entries' text, data/asked-as or the tuning rows."""

from __future__ import annotations

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("desc68_probes.tsv", STILL_FAILING)

test_an_analogy_gets_its_card = PROBES.test("analogy", expect=the_asked_card)
test_a_scene_gets_its_card = PROBES.test("scene", expect=the_asked_card)
test_a_long_story_gets_its_card = PROBES.test("long", expect=the_asked_card)
test_a_neighbouring_shape_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"analogy": 28, "scene": 20, "long": 18, "none": 14}
)
