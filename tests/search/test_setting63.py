"""Cases for task setting63 (issue #12): a counted name ("how many tokens ...") the meaning ranks
nowhere in its ten is offered, not carded (`SearchIndex._counted_name_offered`), read after the
asked-name rules and not where the count says what a thing comes to ("how many tokens IS a
word", "how many tokens should my prompt BE": `query.counted_as_measure`). Written after reading
setting62's write-up and the code, from the probes it named; not blind."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import counted, counted_as_measure

from .probe_files import the_asked_card


# The count says what a thing comes to in the unit: the unit is what is asked, its card stays.
@pytest.mark.parametrize(
    "query",
    [
        "how many tokens should my prompt be",
        "how many tokens is a typical english word",
        "how many tokens is 1000 words?",
    ],
)
def test_a_counted_name_a_thing_comes_to_keeps_its_card(
    bundled_index: SearchIndex, query: str
) -> None:
    the_asked_card(bundled_index.search(query), "token", "")


# The unit of another thing's spend or cost: offered behind the ranking's first, which is the
# thing asked where the ranking has it (Thinking Budget), not the meaning's first (Attention Sink).
@pytest.mark.parametrize(
    ("query", "ahead"),
    [
        ("how many tokens may the model spend thinking before it answers", "thinking-budget"),
        ("how many tokens does one image cost in gpt-4o", "vision-language-models"),
    ],
)
def test_a_counted_unit_is_offered_behind_the_rankings_first(
    bundled_index: SearchIndex, query: str, ahead: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == [ahead, "token"], result


@pytest.mark.parametrize(
    ("after", "measure"),
    [
        (" is a typical english word", True),
        (" should my prompt be", True),
        (" should my prompt be?", True),
        (" does one image cost in gpt-4o", False),
        (" the model is allowed to use for think before answer", False),  # "before": not "be"
        (" may the model spend thinking before it answers", False),
    ],
)
def test_what_a_thing_comes_to_is_read_after_the_counted_name(after: str, measure: bool) -> None:
    assert counted_as_measure(after) is measure


@pytest.mark.parametrize(
    ("before", "counts"),
    [
        ("a long story about my project. " * 100 + "how many ", True),
        ("x " * 3000 + "hundreds of ", True),
        ("1," * 2000 + "and the ", False),  # a run of numbers read only at its tail
        ("1," * 2000, False),
    ],
)
def test_only_the_words_just_before_a_name_count_it(before: str, counts: bool) -> None:
    assert counted(before) is counts
