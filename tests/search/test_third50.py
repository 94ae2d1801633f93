"""Probes for task third50: a long text that names one entry as its setting and asks about
another (issue #12, "never a confident wrong card"). Each must give no card but the entry asked
about, and that entry as the card or among the first three offers. third50_probes.tsv was written
from entry titles and general knowledge, before reading the entries' text, any slice's rows or
the search code."""

from __future__ import annotations

from bot.search import SearchIndex, SearchResult, Suggestion

from .probe_files import ProbeFile, no_card_but_the_asked, the_asked_card_or_first_offers

# Probes that fail on main 2566aa9: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. Both are cards for the setting's name (vLLM; AI Coding
# Agents), the entry asked about offered after it.
NO_WRONG_CARD_FAILING = {
    "while running vllm in production I keep seeing paged attention in the logs, how does it"
    " actually manage the memory for each request?",
    "our ai coding agent runs shell commands for users, why should it run inside a sandbox and"
    " what does the sandbox actually block?",
}
SHOWN_FAILING = NO_WRONG_CARD_FAILING

NO_WRONG = ProbeFile("third50_probes.tsv", NO_WRONG_CARD_FAILING)
SHOWN = ProbeFile("third50_probes.tsv", SHOWN_FAILING)

test_a_setting_name_gives_no_wrong_card = NO_WRONG.test("setting", expect=no_card_but_the_asked)
test_the_asked_entry_is_shown = SHOWN.test("setting", expect=the_asked_card_or_first_offers)
test_the_probe_file_is_whole = NO_WRONG.counted({"setting": 23})


# `_asked_name_offered` on a card whose offers already hold the meaning's best: in third50's
# words, shaped like the tuning row (dev16) where the name put second pushed the right third
# offer (DPO) to fourth. The meaning ranks KTO, RLHF, DPO (0.66, 0.58, 0.50 here), the
# name (Alignment) outside the ten.
THUMBS = (
    "our alignment team collects thumbs up and thumbs down pairs on the answers, which method"
    " trains on those pairs directly without a reward model?"
)


def _card(index: SearchIndex, card: str, offers: list[str]) -> SearchResult:
    def suggestion(entry_id: str, score: float) -> Suggestion:
        entry = index.entries[index.positions[entry_id]]
        return Suggestion(entry.id, entry.title, score, "semantic")

    entry = index.entries[index.positions[card]]
    scores = [80.0 - 5 * i for i in range(len(offers))]
    return SearchResult(
        "match",
        entry,
        "match-term",
        93.0,
        THUMBS,
        THUMBS.lower(),
        tuple(suggestion(o, s) for o, s in zip(offers, scores, strict=True)),
    )


def _offered(index: SearchIndex, card: str, offers: list[str], meaning: list[str]) -> list[str]:
    similar = [(index.positions[e], 0.66 - 0.08 * i) for i, e in enumerate(meaning)]
    result = index._asked_name_offered(
        _card(index, card, offers), index.positions[card], similar, THUMBS
    )
    assert result.entry is None, result
    scores = [s.score for s in result.suggestions]
    assert scores == sorted(scores, reverse=True), result
    return [s.id for s in result.suggestions]


def test_the_name_goes_behind_offers_that_stood_ahead_of_the_meanings_best(
    bundled_index: SearchIndex,
) -> None:
    """The meaning's best (KTO) was the card's third offer: it moves first, and the two offers
    ahead of it (RLHF, DPO) stay in the first three; the name comes fourth."""
    offers = ["rlhf", "dpo", "kahneman-tversky-optimization"]
    meaning = ["kahneman-tversky-optimization", "rlhf", "dpo"]
    assert _offered(bundled_index, "alignment", offers, meaning) == [
        "kahneman-tversky-optimization",
        "rlhf",
        "dpo",
        "alignment",
    ]


def test_the_name_stays_second_behind_a_first_offer(bundled_index: SearchIndex) -> None:
    """The meaning's best was the card's first offer, or no offer at all: the name right after it."""
    meaning = ["kahneman-tversky-optimization", "rlhf", "dpo"]
    first = ["kahneman-tversky-optimization", "rlhf", "dpo"]
    assert _offered(bundled_index, "alignment", first, meaning)[:2] == [
        "kahneman-tversky-optimization",
        "alignment",
    ]
    absent = ["rlhf", "dpo", "sft"]
    assert _offered(bundled_index, "alignment", absent, meaning) == [
        "kahneman-tversky-optimization",
        "alignment",
        "rlhf",
        "dpo",
        "sft",
    ]
