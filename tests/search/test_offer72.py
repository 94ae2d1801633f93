"""Probes for task offer72 (issue #12, "a lone suggestion with a strong lead is a card"): a chat
question naming or describing one entry gets its card rather than only offering it; a question
from a neighbouring field gets no card. offer72_probes.tsv was written from entry ids and general
knowledge, before reading the tuning rows, the entries' text or bot/search."""

from __future__ import annotations

import pytest

from bot.search import SearchIndex

from .probe_files import ProbeFile, no_card, the_asked_card

# Probes that fail on this branch (and on main 18bf7757): strict expected failures, so one that
# starts passing fails the suite and is moved out of here. Three descriptions are offered with
# their entry first, the meaning capped at 82.9 and tied with its neighbours (Knowledge Editing,
# Rubric; the distillation one is carded since calib73's `_offer_carded`); "future tokens during training" is carded Training Tokens by the words
# (semantic 100; Causal Mask offered first); "process" starts Process Reward Model's name (prefix).
STILL_FAILING: set[str] = {
    "what do you call it when the model makes up facts that sound true but aren't?",
    "what do you call using one model to grade the answers of another model?",
    "what stops the model from looking at future tokens during training?",
    "what's the difference between a process and a thread?",
}
PROBES = ProbeFile("offer72_probes.tsv", STILL_FAILING)

test_a_named_chat_question_gets_its_card = PROBES.test("named", expect=the_asked_card)
test_a_described_chat_question_gets_its_card = PROBES.test("described", expect=the_asked_card)
test_a_neighbouring_field_gets_no_card = PROBES.test("offtopic", expect=no_card)
test_the_probes_are_the_ones_written = PROBES.counted(
    {"named": 23, "described": 22, "offtopic": 15}
)


# Tuning rows (dev5, dev12, dev21) offered with their entry first, that the words and the
# meaning both put first, each by the card margin over its second (`_agreed_offer_carded`,
# `fusion.leads_both`, 68e3068f): carded by the rule. It failed the ship rule on held out
# (bench/offer72_rows_changed.py: tuning 16 right cards more, none wrong; held out 15 right and
# 5 wrong more, the wrong share 4.47% -> 4.53%) and was reverted: strict xfails.
@pytest.mark.xfail(strict=True, reason="_agreed_offer_carded reverted")
@pytest.mark.parametrize(
    ("query", "card"),
    [
        ("how does my text get chopped up before the model sees it", "tokenization"),
        (
            "our audiobook club tried a robot narrator that sounds almost human. what's the tech"
            " that reads text aloud?",
            "text-to-speech",
        ),
        ("unreleased questions graders keep hidden", "private-test-set"),
    ],
)
def test_an_offer_both_stages_lead_is_carded(
    bundled_index: SearchIndex, query: str, card: str
) -> None:
    result = bundled_index.search(query)
    assert result.entry is not None, result
    assert result.entry.id == card, result
