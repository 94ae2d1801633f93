"""Task opener55: chat words that only open a short question ("wait so what's ...", "nvm i mean
how does X work") are dropped before it (`chat._short_question_opener_dropped`); before a longer
question they stay. Written after reading dev19's filler rows (a tuning slice) and the code: on
those rows, all 9 to 24 words long, dropping the words read each as a question naming what it
describes and cost two right cards ("so like how did deepseek r1 do rl without a value model"
became a choice between DeepSeek and GRPO). The search's side is in opener53's and shape52's
probes."""

from __future__ import annotations

import pytest

from bot.search.chat import plain_chat


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("wait so how does lora work", "how does lora work"),
        ("nvm i mean what's paged attention", "what's paged attention"),
        ("real talk what is rlhf", "what is rlhf"),
        ("ok so like what's an epoch", "what's an epoch"),
        ("sorry dumb follow up, what is the learning rate", "what is the learning rate"),
        ("btw quick q, how does beam search work?", "how does beam search work?"),
        ("um also what are logits", "what are logits"),
    ],
)
def test_chat_words_before_a_short_question_are_dropped(typed: str, plain: str) -> None:
    assert plain_chat(typed) == plain


@pytest.mark.parametrize(
    "typed",
    [
        # a longer question keeps them (dev19's shape, not its rows)
        "so like how did the lab train its reasoning model without a value network at all",
        "wait so how many tokens a second can one small gpu actually serve to users",
        # no question word after them: a topic, not an opener
        "so like lora but smaller",
        "btw rag is great",
        # a question word written later, not right after them
        "wait so lora is what exactly",
    ],
)
def test_chat_words_stay_elsewhere(typed: str) -> None:
    assert plain_chat(typed) == typed
