"""Task speed52: a search's one encoder pass fits the message's rows. The texts riding on the
message (`Encoder.encode_queries(fit=True)`: its asking clause, the message without its framing)
keep their own tokens where the pass fits in QUERY_TOKENS rows; where not, they share the rows
the message leaves, each cut to at least RIDER_TOKENS, and the message is never cut for them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.search import SearchIndex
from bot.search.index import MAX_QUERY
from bot.search.query import clauses_of
from bot.search.semantic.encoder import QUERY_TOKENS, RIDER_TOKENS, Encoder

CLOSE = 0.99999  # cosine: rounding, as speed50's shared pass

CONTEXT = (
    "we run a discord server for a small indie game studio with about three hundred members. "
    "most of them are artists and writers. last month we added a bot that answers questions "
    "about our lore wiki and the build pipeline for the nightly releases of the game."
)
ASKED = "how does a kv cache make long chats cheaper"


def _cut(encoder: Encoder, text: str, tokens: int) -> np.ndarray:
    vector: np.ndarray = encoder.encode_queries([text], tokens)[0]
    return vector


def _agree(together: np.ndarray, alone: Sequence[np.ndarray]) -> None:
    for row, own in zip(together, alone, strict=True):
        assert float(row @ own) > CLOSE


def test_texts_that_fit_are_not_cut(ragged_passes: tuple[Encoder, list[list[int]]]) -> None:
    encoder, made = ragged_passes
    texts = ["we serve llama with vllm. what is a kv cache", "what is a kv cache"]
    assert np.array_equal(encoder.encode_queries(texts, fit=True), encoder.encode_queries(texts))
    assert made[0] == made[1]
    assert sum(made[0]) <= QUERY_TOKENS


def test_a_message_at_the_cut_keeps_its_rows_and_its_clause_the_floor(
    ragged_passes: tuple[Encoder, list[list[int]]],
) -> None:
    encoder, made = ragged_passes
    message = f"{CONTEXT} {CONTEXT} {ASKED}"
    together = encoder.encode_queries([message, ASKED], fit=True)
    assert made == [[QUERY_TOKENS, RIDER_TOKENS]]
    _agree(together, [_cut(encoder, message, QUERY_TOKENS), _cut(encoder, ASKED, RIDER_TOKENS)])


def test_riders_share_the_rows_the_message_leaves(
    ragged_passes: tuple[Encoder, list[list[int]]],
) -> None:
    encoder, made = ragged_passes
    message = CONTEXT.split(". last")[0]  # two sentences: about 20 rows left for two riders
    riders = [
        f"the artists asked {ASKED}",
        f"and then the writers and the level designers in our server asked {ASKED}",
    ]
    first, *whole = (len(encoder.tokenizer.encode(t, QUERY_TOKENS)) for t in [message, *riders])
    room = (QUERY_TOKENS - first) // 2
    assert RIDER_TOKENS < room < max(whole)
    together = encoder.encode_queries([message, *riders], fit=True)
    assert made == [[first, *(min(room, n) for n in whole)]]
    alone = [_cut(encoder, message, QUERY_TOKENS), *(_cut(encoder, t, room) for t in riders)]
    _agree(together, alone)
    # a lone text is never cut below QUERY_TOKENS, nor a rider where the pass fits
    made.clear()
    encoder.encode_queries([f"{CONTEXT} {CONTEXT}"], fit=True)
    encoder.encode_queries([message, "a kv cache"], fit=True)
    assert made == [[QUERY_TOKENS], [first, 5]]


def test_a_long_messages_search_makes_one_pass_of_the_messages_rows(
    bundled_index: SearchIndex, ragged_passes: tuple[Encoder, list[list[int]]]
) -> None:
    """Context sentences past the cut, then the question: the clause rode whole before
    speed52 (its 11 rows beside the message's 62), then cut to RIDER_TOKENS. A message this
    long is read a clause at a time too (long71): its clauses ride on the same pass, each whole,
    and since speed74 in place of the rider."""
    assert bundled_index.semantic is not None
    assert bundled_index.semantic.encoder is ragged_passes[0]
    encoder, made = ragged_passes
    assert len(encoder.tokenizer.encode(ASKED, QUERY_TOKENS)) > RIDER_TOKENS
    message = f"{CONTEXT} {CONTEXT} {ASKED}?"
    result = bundled_index.search(message)
    said = clauses_of(message[:MAX_QUERY])
    assert len(made) == 1
    assert made[0][1:] == [len(encoder.tokenizer.encode(c, QUERY_TOKENS)) for c in said]
    assert QUERY_TOKENS - RIDER_TOKENS < made[0][0] <= QUERY_TOKENS
    assert result.entry is not None
    assert result.entry.id == "kv-cache"
