"""left70: a card whose name the question writes out says so in its footer. "when my loss
spikes after warmup, what is gradient clipping?" said "matched … by its description": how the
search weighed it, not how it was found (review70, "Noticed, left"). The card is the same."""

from __future__ import annotations

import pytest

from bot.cards.text import how_matched
from bot.search.index import SearchIndex

NAMED = "by the name written in it"

# (text, the card it gives): the name written at the end of a long question, after a scene, in a
# comparison, as an alias, inside a question about what it means.
NAMED_IN_QUESTIONS = [
    ("when my loss spikes after warmup, what is gradient clipping?", "gradient-clipping"),
    ("my loss spikes after warmup. what is gradient clipping?", "gradient-clipping"),
    (
        "so we had this huge run going over the weekend and the loss exploded at step 40k, "
        "someone said to try gradient clipping, what is that",
        "gradient-clipping",
    ),
    (
        "gradient clipping vs weight decay, which one helps with exploding gradients?",
        "gradient-clipping",
    ),
    (
        "i keep hearing about gradient clipping when people train big models, what is it",
        "gradient-clipping",
    ),
    ("is lora better than full fine-tuning when you only have one gpu?", "lora-qlora"),
    (
        "the model keeps making stuff up in answers, is that what hallucination means?",
        "hallucination",
    ),
]


@pytest.mark.parametrize(("text", "card"), NAMED_IN_QUESTIONS)
def test_a_name_written_in_the_question_is_how_the_card_was_found(
    bundled_index: SearchIndex, text: str, card: str
) -> None:
    result = bundled_index.search(text)
    assert result.entry is not None, result
    assert result.entry.id == card, result
    # the name written, not the whole question (product73)
    written = "lora" if card == "lora-qlora" else card.replace("-", " ")
    assert how_matched(result) == f'matched "{written}" {NAMED}'


@pytest.mark.parametrize(
    ("text", "footer"),
    [
        # no name of the card written: the meaning or the description found it, and says so
        # the question's core is quoted, without the "the" it opens with (product73)
        ("optimizer with decoupled weight decay", "by what it means"),
        ("quantized", "as a related form"),
        ("red teamers", "as a related form"),
        ("kv cahce", "as a typo"),
        ("what is gradient clipping?", None),  # asked as a name: no footer, as before
    ],
)
def test_a_card_whose_name_is_not_written_keeps_its_footer(
    bundled_index: SearchIndex, text: str, footer: str | None
) -> None:
    result = bundled_index.search(text)
    assert result.entry is not None, result
    said = how_matched(result)
    assert said == (None if footer is None else f'matched "{text}" {footer}'), said
