"""Probes for task ablate56: a message with a link, read as `/define`, a mention and
`glossary-bot search` read it (`search_asked`). The words a member wrote beside a link decide
the card; a link alone opens none (the bot says it is a link); an address naming an entry beside
everyday chat opens none. ablate56_probes.tsv was written from entry titles and general
knowledge, before reading the link code or any slice's rows."""

from __future__ import annotations

import pytest

from bot.glossary.links import only_links
from bot.search import SearchIndex
from bot.search.asked import search_asked

from .probe_files import (
    ProbeFile,
    no_card,
    no_card_but_the_asked,
    the_asked_card,
    the_asked_card_or_first_offers,
)

PROBES = ProbeFile("ablate56_probes.tsv")

test_the_file_holds_every_probe = PROBES.counted(
    {"words": 12, "own": 2, "pointing": 2, "alone": 3, "unrelated": 5}
)


@pytest.mark.parametrize(("query", "asked", "written"), PROBES.params("words"))
def test_the_words_beside_a_link_decide(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    result = search_asked(bundled_index, query)
    no_card_but_the_asked(result, asked, written)
    the_asked_card_or_first_offers(result, asked, written)


@pytest.mark.parametrize(("query", "asked", "written"), PROBES.params("own"))
def test_words_asking_about_the_linked_page_open_its_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    the_asked_card(search_asked(bundled_index, query), asked, written)


@pytest.mark.parametrize(("query", "asked", "written"), PROBES.params("pointing"))
def test_words_pointing_at_the_link_keep_its_address_entry_in_reach(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    the_asked_card_or_first_offers(search_asked(bundled_index, query), asked, written)


@pytest.mark.parametrize(("query", "asked", "written"), PROBES.params("alone"))
def test_a_link_alone_opens_no_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    assert only_links(query)  # what the reply reads to say "That is a link"
    no_card(search_asked(bundled_index, query), asked, written)


@pytest.mark.parametrize(("query", "asked", "written"), PROBES.params("unrelated"))
def test_an_address_beside_everyday_chat_opens_no_card(
    bundled_index: SearchIndex, query: str, asked: str, written: str
) -> None:
    no_card(search_asked(bundled_index, query), asked, written)
