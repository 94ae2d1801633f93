"""Probes for task question29: a chat question whose scene names one entry, then asks which or
what kind of thing does something ("our rag bot pulls chunks out of the vector database. what
stage puts the best ones on top?"); the scene's name says where, it is not what is asked
(issue #12). question29_probes.tsv was written from entry titles and general knowledge, not
from the entries' text nor any slice's rows."""

from __future__ import annotations

from .probe_files import ProbeFile, the_asked_card, the_asked_card_or_first_offers


def the_scene_not_carded(result, asked: str, written: str) -> None:  # type: ignore[no-untyped-def]
    """No card for the scene's name; the asked entry the card or among the first offers."""
    assert result.entry is None or result.entry.id != written, result
    the_asked_card_or_first_offers(result, asked, written)


# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here.
STILL_FAILING: set[str] = set()
PROBES = ProbeFile("question29_probes.tsv", STILL_FAILING)

test_the_scene_s_name_is_no_card = PROBES.test("kind", expect=the_scene_not_carded)
test_a_scene_s_own_name_asked_keeps_its_card = PROBES.test("own", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"kind": 10, "own": 4})
