"""Task speed74: a long message read a clause at a time (long71) embeds the message and its
clauses, and no text read alone beside them (its asking clause, the message without its framing
or its speaker): past the message's 64 rows those were cut to a few words, which raised a first
entry's cosine on 4 of the 665 relevance rows of 240+ characters and carded one off-topic text."""

from __future__ import annotations

from bot.search import SearchIndex
from bot.search.index import MAX_QUERY
from bot.search.query import clauses_of
from bot.search.semantic.encoder import QUERY_TOKENS, Encoder

# framed ("our soccer parents asked"), then a question in a later clause: before speed74 the
# unframed text and the asking clause rode on the pass, 8 rows each, before the clauses
FRAMED = (
    "our soccer parents asked me something at practice yesterday and i had no good answer. "
    "the club wants to put a chatbot on the website for schedules and the coaches worry it "
    "will make things up about game times. how do you stop a bot from inventing answers "
    "that are not in the club documents?"
)
# dev14, an off-topic row: the rider's cosine carded Checkpoint before speed74
WAREHOUSE = (
    "in our data warehouse the dimension table for products changes over time, prices and "
    "categories, and analysts want to see historical reports with the values as they were back "
    "then. someone mentioned type 2 slowly changing dimensions. how do you model that in dbt "
    "with snapshots"
)


def test_a_long_messages_pass_is_the_message_and_its_clauses(
    bundled_index: SearchIndex, ragged_passes: tuple[Encoder, list[list[int]]]
) -> None:
    assert bundled_index.semantic is not None
    encoder, made = ragged_passes
    assert bundled_index.semantic.encoder is encoder
    bundled_index.search(FRAMED)
    clauses = clauses_of(FRAMED[:MAX_QUERY])
    assert len(clauses) > 1
    assert len(made) == 1
    assert made[0][1:] == [len(encoder.tokenizer.encode(c, QUERY_TOKENS)) for c in clauses]


def test_a_long_off_topic_message_gets_no_card(bundled_index: SearchIndex) -> None:
    assert bundled_index.search(WAREHOUSE).entry is None
