"""Probes for task mirror69 (issue #12): "in/with/for/inside/using Y, what is X" where the scene Y
is written first and the asked clause's subject is the whole written name X ("in vllm what is paged
attention"): X's card, as "what is X in Y" already gives. Where the asked clause asks about Y itself
("in vllm what is it for") Y's card stays. mirror69_probes.tsv was written from entry titles and
general knowledge, before reading the tuning rows, the entries' text or bot/search."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card

# Probes that fail on this branch: strict expected failures, so one that starts passing fails the
# suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("mirror69_probes.tsv", STILL_FAILING)

test_the_name_asked_after_its_scene_is_the_card = PROBES.test("named", expect=the_asked_card)
test_the_scene_asked_about_keeps_its_card = PROBES.test("setting", expect=the_asked_card)
test_the_name_asked_before_its_scene_is_the_card = PROBES.test("mirror", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"named": 34, "setting": 12, "mirror": 5})
