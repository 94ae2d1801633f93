"""Probes for derived forms of names (task forms17): a verb or adjective form of an entry's name
as a question's subject ("why do llms hallucinate"), in its everyday sense ("distilled water"),
or beside another name that is asked about. forms17_probes.tsv was written from the entry titles
and general knowledge before reading the search code, the entries or the relevance rows."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch, all of which failed on main too: strict expected failures,
# so one that starts passing fails the suite and is moved out of here.
STILL_FAILING = {
    "how can i tell if my network is overfit",  # Validation Loss offered first, then Overfitting
    "how to watermark my photos in lightroom",  # Watermarking card
}
PROBES = ProbeFile("forms17_probes.tsv", STILL_FAILING)

test_a_form_of_the_name_asked_about_gets_its_card = PROBES.test("form", expect=the_asked_card)
test_a_form_in_its_everyday_sense_gets_no_card = PROBES.test("everyday", expect=no_card)
test_another_name_asked_about_beside_a_form_gets_its_card = PROBES.test(
    "other", expect=the_asked_card
)
test_the_probes_are_the_ones_written = PROBES.counted({"form": 22, "everyday": 11, "other": 11})


@pytest.mark.parametrize(
    "query",
    [
        "what does it mean to distill water",
        "what does it mean to distill whiskey",
        "what does it mean to quantize a song in ableton",
    ],
)
def test_what_it_means_to_do_an_everyday_thing_gets_no_card(
    bundled_index: SearchIndex, query: str
) -> None:
    assert bundled_index.search(query).entry is None
