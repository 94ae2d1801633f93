"""Probes for task setting62 (issue #12): a general name written as the setting of what is asked
("how many tokens ...", "on a gpu", "in pytorch", "on the hugging face hub"), not its subject,
gets no card of its own; where the general name is what is asked about ("what is a token", "is
llama open source") its card stays. setting62_probes.tsv was written from entry titles and general
knowledge, before reading wrong61's rows, the entries' text or the question code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, not_the_written_card, the_asked_card

# Probes that fail on this branch (and on main 1571f2ec): strict expected failures, so one that
# starts passing fails the suite and is moved out of here. A tool written as where ("on / from
# the hugging face hub", "from one transformer block to the next") keeps its card: those
# frames' asked-name cards were right on the tuning slices (setting62's write-up); part72's
# `_mechanism_setting_offered` since offers a tool written as the doer of working something out
# ("how does pytorch work out the gradients"). "what goes into a dataset ..." gets only offers.
STILL_FAILING: set[str] = {
    "what documentation are you supposed to publish with a dataset on the hugging face hub",
    "which library do I use to pull a model from the hugging face hub and run it in three lines"
    " of python",
    "how does information pass from one transformer block to the next through the skip connections",
    "what goes into a dataset and how big should one be",
}
PROBES = ProbeFile("setting62_probes.tsv", STILL_FAILING)

test_a_general_name_as_the_setting_gets_no_card = PROBES.test(
    "setting", expect=not_the_written_card
)
test_a_general_name_asked_about_keeps_its_card = PROBES.test("subject", expect=the_asked_card)
test_the_probes_are_the_ones_written = PROBES.counted({"setting": 39, "subject": 20})


# Tuning rows (dev13, dev4, dev18) whose wrong Token card is for the unit counted: offered, the
# ranking's first ahead, since setting63 (`_counted_name_offered`); dev18's ("2B tokens of ...")
# since setting64.
@pytest.mark.parametrize(
    "query",
    [
        "how many tokens the model is allowed to use for think before answer",
        "how many tokens does one image cost in gpt-4o",
        # Token ranks seventh in the meaning's ten: offered as an amount of another thing since
        # setting64 (`_material_name_offered`)
        "2B tokens of court filings: keep running the raw-text objective on them first, then"
        " instruction tune?",
    ],
)
def test_a_counted_name_the_meaning_ranks_low_is_offered(
    bundled_index: SearchIndex, query: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[1:2]] == ["token"], result


# A counted name the meaning ranks in its first three is what is asked (calib, dev5): its card
# stays (a guard for a next counted-name reading).
@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("how many epochs for fine tuning??", "epoch"),
        ("why does sdxl have two text encoders", "text-encoder"),
    ],
)
def test_a_counted_name_the_meaning_ranks_high_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")
