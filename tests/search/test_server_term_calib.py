"""Server terms found by meaning across fifteen made-up servers (issue 12): a description of a
server's own coinage with a clear semantic lead is that term's card; none is a wrong card, and
off-topic chat in a server with terms gets no card. The data was written before the code."""

from __future__ import annotations

from pathlib import Path

from bot.search.index import SearchIndex
from bot.search.relevance import OFF_TOPIC_KINDS, load_cases

from .server_term_calib import Server

NEIGHBOURS = [
    c.query
    for c in load_cases(Path(__file__).parent / "relevance_blind.tsv")
    if c.slice == "calib" and c.kind in OFF_TOPIC_KINDS
]


def test_descriptions_of_server_terms_are_cards_and_never_wrong_ones(
    server_indexes: list[tuple[Server, SearchIndex]],
) -> None:
    cards, wrong, total = 0, [], 0
    for server, index in server_indexes:
        for text, term_id in server.described:
            total += 1
            found = index.search(text).entry
            cards += found is not None and found.id == term_id
            if found is not None and found.id != term_id:
                wrong.append((server.name, text, found.id))
    assert not wrong
    assert cards / total >= 0.8, f"{cards} of {total}"  # 63 of 74 when set


def test_off_topic_chat_in_a_server_with_terms_gets_no_card(
    server_indexes: list[tuple[Server, SearchIndex]],
) -> None:
    carded = [
        (server.name, text, result.entry.id)
        for server, index in server_indexes
        for text in (*server.off_topic, *NEIGHBOURS)
        if (result := index.search(text)).entry is not None
    ]
    assert not carded


def test_a_lone_semantic_choice_is_a_card_only_for_a_server_term(
    server_indexes: list[tuple[Server, SearchIndex]], bundled_index: SearchIndex
) -> None:
    server, index = server_indexes[0]
    text, term_id = server.described[0]
    here = index.search(text)
    assert here.entry is not None
    assert here.entry.id == term_id
    assert here.strategy == "semantic"
    # The same words with no server terms: no card for anything bundled.
    assert bundled_index.search(text).entry is None
