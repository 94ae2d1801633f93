"""Probes for task shape52: questions in the shapes Discord people write them (issue #12 item 3),
each writing or misspelling the asked entry's name: a log, config or code line first, a greeting
or @mention, a follow-up ("ok and what about top k"), emoji or markdown, a typo, slang. "card":
its card. "offer": "X vs Y", "is X the same as Y" or a near form: the first named entry's card or
among the first three offers. "none": an off-topic message in the same shapes: no card.
shape52_probes.tsv was written from entry titles and general knowledge, before reading the
entries' text, any slice's rows or the search code."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex
from bot.search.chat import plain_chat
from bot.search.query import quote_split, quoted_reply

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on main 63d71e5: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Offered first without a card (or behind a neighbour): the
# pasted JSON line before the question keeps the name from being read as asked. Three more
# ("wait so", "sorry one more,", "so like" before a short question) pass since opener55
# (`chat._short_question_opener_dropped`).
STILL_FAILING: set[str] = {
    '"tool_choice": "auto" how does function calling work',
}
PROBES = ProbeFile("shape52_probes.tsv", STILL_FAILING)

test_a_shaped_question_gets_its_card = PROBES.test("card", expect=the_asked_card)
test_a_comparison_offers_the_first_named = PROBES.test(
    "offer", expect=the_asked_card_or_first_offers
)
test_an_off_topic_message_gets_no_card = PROBES.test("none", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted({"card": 36, "offer": 8, "none": 12})


# Written after reading the code and dev11's thread replies (a quote of the message answered, then
# the reply, which names nothing and points back at it). Each of the two quoted-reply cards below
# failed on main 63d71e5 (offers only: the meaning reads the reply's words, which name nothing).
QUOTED_REPLIES = [
    ("> just ask for json back\nbut will it always parse?", "json"),
    ("> just ask for json back  but will it always parse?", "json"),  # the line break flattened
    ("> try mcp for the calendar\nwhat would it let the bot reach?", "mcp"),
]


@pytest.mark.parametrize(("text", "asked"), QUOTED_REPLIES)
def test_a_reply_naming_nothing_asks_about_the_quoted_name(
    bundled_index: SearchIndex, text: str, asked: str
) -> None:
    the_asked_card(bundled_index.search(text), asked, asked)


@pytest.mark.parametrize(
    "text",
    [
        "> we should train the new hire on the register  good idea?",
        "> set the temperature to 21 on the thermostat\nis that celsius?",
        "> the token for the parking garage is at the desk\nwhere exactly",
    ],
)
def test_a_quoted_everyday_message_is_no_card(bundled_index: SearchIndex, text: str) -> None:
    assert bundled_index.search(text).entry is None


def test_a_reply_naming_its_own_entry_is_not_read_as_the_quotes(
    bundled_index: SearchIndex,
) -> None:
    """The quote is the subject only where the reply names nothing: "or should we fine-tune"
    weighs its own name against the quote's, as a comparison."""
    assert quoted_reply("> try rag on the wiki\nor should we fine-tune instead?") == (
        "try rag on the wiki",
        "or should we fine tune instead",
    )
    reply = "> try rag on the wiki\nor should we fine-tune instead?"
    assert bundled_index.questions.read(reply, "", "", True, []).subject is None
    quote_only = "> try rag on the wiki\nwould that work?"
    assert bundled_index.questions.read(quote_only, "", "", True, []).subject is not None


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("> cuda 12.1 needed\nwhat is that", ("> cuda 12.1 needed", "what is that")),
        ("  > cuda 12.1 needed   what is that ", ("> cuda 12.1 needed", "what is that")),
        ("> what is a system prompt", None),  # a quote alone: nothing replies to it
        ("what is rag  > quote later", None),  # no quote first
        (">\nwhat is rag", None),  # an empty quote
        ("> rag\n   ", None),  # no reply
    ],
)
def test_a_quote_is_split_from_its_reply(text: str, split: tuple[str, str] | None) -> None:
    assert quote_split(text) == split


def test_plain_chat_keeps_the_line_after_a_quote() -> None:
    """Chat spellings are read in each part; the line between them stays, so the search knows
    which part writes a name."""
    assert plain_chat("> u need cuda for that  wat is it") == "> you need cuda for that\nwhat is it"
