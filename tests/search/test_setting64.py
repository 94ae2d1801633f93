"""Probes for task setting64 (issue #12): a general name written only as the setting of a text (the
measure or material of a number, "2B tokens of court filings"; a verb's object in a sentence asking
about something else, "we finetuned the embeddings"; a kind, "a model like llama"; inside pasted
code) gets no card of its own; where the same name is what is asked about ("what is a token", "how
do embeddings capture meaning") its card stays. setting64_probes.tsv was written from entry titles
and general knowledge, before reading the tuning rows, the entries' text or bot/search."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.query import counted_material

from .probe_files import (
    ProbeFile,
    not_the_written_card,
    the_asked_card,
    the_asked_card_or_first_offers,
)

# Probes that fail on this branch and on main a8a39543: strict expected failures, so one that
# starts passing fails the suite and is moved out of here. Token's card for "about 1M tokens of
# documents ..." is the meaning's own (Token in its first three). Two subject probes were wrong as
# written: tokens per word is Tokenizer Fertility (offered first, Token second), and the
# fine-tuning dataset question gets Dataset as a fourth offer.
STILL_FAILING: set[str] = {
    "about 1M tokens of documents go through the api every day, how do we cut the bill",
    "how many tokens is one english word on average",
    "what does a dataset for fine-tuning look like",
}
PROBES = ProbeFile("setting64_probes.tsv", STILL_FAILING)

test_a_general_name_as_the_setting_gets_no_card = PROBES.test(
    "measure", "object", "kind", "code", expect=not_the_written_card
)
test_a_general_name_asked_about_keeps_its_card = PROBES.test("subject", expect=the_asked_card)
test_a_measure_asked_about_is_shown = PROBES.test("measured", expect=the_asked_card_or_first_offers)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"measure": 17, "object": 10, "kind": 5, "code": 4, "subject": 17, "measured": 2}
)


# Cases written after reading the code (not blind). dev18's tuning row and the probes' amounts: the
# unit is offered behind the ranking's first (`SearchIndex._material_name_offered`).
@pytest.mark.parametrize(
    ("query", "ahead"),
    [
        (
            "2B tokens of court filings: keep running the raw-text objective on them first, then"
            " instruction tune?",
            "sft",
        ),
        (
            "50 million tokens of support chats: enough to teach the model our tone with a small"
            " adapter?",
            "training-tokens",
        ),
    ],
)
def test_a_name_written_as_an_amount_of_another_thing_is_offered(
    bundled_index: SearchIndex, query: str, ahead: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is None, result
    assert [s.id for s in result.suggestions[:2]] == [ahead, "token"], result


# One of it, a version's digit, or a name the meaning ranks high is not an amount of another
# thing: the name is what is asked, its card stays.
@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("how many characters are in 1 token of english text", "token"),
        ("what does a token of text look like to the model", "token"),
    ],
)
def test_a_name_that_is_not_an_amount_keeps_its_card(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(query), asked, "")


@pytest.mark.parametrize(
    ("before", "after", "material"),
    [
        ("2b ", " of court filings", True),
        ("500 ", " hours of training", True),
        ("three thousand ", " of rules", True),
        ("a million ", " of activations", True),
        ("15 trillion ", " of web text", True),
        ("1,000 ", " of chat logs", True),
        ("1 ", " of english text", False),  # one of it is no amount
        ("a ", " of thanks", False),
        ("gpt 2 ", " of words", False),  # a version's digit
        ("2b ", " in the prompt", False),  # "in": where, not what of
        ("how many ", " of text", False),
        ("the ", " of the model", False),
    ],
)
def test_an_amount_of_another_thing_is_read_around_the_name(
    before: str, after: str, material: bool
) -> None:
    assert counted_material(before, after) is material


# Hostile input: only the tail before the name is read (`COUNTED_TAIL`), and "of" only just after
# it, so a long run of the trigger is read as fast as a short one (no timing asserted here).
@pytest.mark.parametrize(
    ("before", "after", "material"),
    [
        ("1," * 2000, " of x", False),
        ("x " * 3000 + "2b ", " of court filings", True),
        ("2b " * 1300, " of" * 1300 + " x", True),
        ("1 " * 2000, " hours" * 600, False),
    ],
)
def test_only_the_words_around_the_name_are_read(before: str, after: str, material: bool) -> None:
    assert counted_material(before, after) is material
