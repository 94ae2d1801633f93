"""Probes for task voice61 (issue #12): the speaker's opening ("accountant here, ...", "nurse:
...") read away as the meaning's second reading only (`query.without_speaker`,
`SearchIndex._without_speaker`, `index._unvoiced_agreeing`), every lexical and off-field rule
still reading the whole text. voice61_probes.tsv was written from the entry titles and general
knowledge before reading the reading's code, the tuning rows or the entries' text; most of it is
what the reading must refuse: an opening carrying the (off-topic) sense ("baker here: what
temperature does bread dough need to proof?"), a log's label ("RuntimeError:"), a subject
("LoRA: what rank?")."""

from __future__ import annotations

import numpy as np
import pytest

from bot.search import SearchIndex
from bot.search.asked import search_asked
from bot.search.index import UNVOICED_LEAD, _unvoiced_agreeing
from bot.search.query import without_speaker

from .probe_files import ProbeFile, no_card, the_asked_card, the_asked_card_or_first_offers

# Probes that fail on this branch: strict expected failures, so one that starts passing fails
# the suite and is moved out of here. None of them is moved by the reading either way.
OPENED_FAILING: set[str] = {
    # the asked entry offered first, no card: its meaning's first is too near its second
    "vet here: what is knowledge distillation?",
    "sales guy here, what is an embedding?",
    "baker here: what does top-p sampling do?",
    "retired accountant here: what's it called when the chatbot confidently invents sources?",
}
SUBJECT_FAILING: set[str] = {
    # Transformers' card (the architecture) for the library's import error
    "ImportError: cannot import name AutoModel from transformers, how do i fix it?",
    # Paged Attention and VRAM offered, not vLLM
    "vllm: why does it reserve most of my gpu memory?",
}
NONE_FAILING: set[str] = {
    # Knowledge Distillation's card for a classroom's copying (the whole text's own answer)
    "teacher here, how do i stop students copying each other's homework?",
}
OPENED = ProbeFile("voice61_probes.tsv", OPENED_FAILING)
SUBJECT = ProbeFile("voice61_probes.tsv", SUBJECT_FAILING)
NONE = ProbeFile("voice61_probes.tsv", NONE_FAILING)

test_an_opened_question_gets_the_asked_card = OPENED.test("opened", expect=the_asked_card)
test_a_subject_label_stays_and_is_answered = SUBJECT.test(
    "subject", expect=the_asked_card_or_first_offers
)
test_an_opening_carrying_the_sense_gets_no_card = NONE.test("none", expect=no_card)
test_the_probes_are_the_ones_written = OPENED.counted({"opened": 12, "subject": 12, "none": 12})

NAMES = {"kv cache", "attention", "docker", "lora"}


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("accountant here, what is a kv cache?", "what is a kv cache?"),
        ("Chef, long one, sorry: why does my bot forget things?", "why does my bot forget things?"),
        ("PM here - how does it pick a model?", "how does it pick a model?"),
        ("barista here, long story short: what is attention?", "what is attention?"),
        (
            "baker here: what temperature does dough proof at?",
            "what temperature does dough proof at?",
        ),
        # the subject, a log's label or level, a mixed-case word, a topic's label: none
        ("kv cache: why does it grow?", None),
        ("LoRA: what rank should i use?", None),
        ("RuntimeError: CUDA out of memory, why?", None),
        ("WARNING: cache is full, what is evicted?", None),
        ("TLA+ homework: which kind of property?", None),
        ("documentation for a dataset: what is it called?", None),
        # the rest asks nothing, or too little; no opening at all
        ("nurse: the model makes things up", None),
        ("nurse: why?", None),
        ("what is a kv cache?", None),
    ],
)
def test_the_speakers_opening_read_away(text: str, rest: str | None) -> None:
    assert without_speaker(text, NAMES.__contains__) == rest


class _Meaning:
    """A semantic stage whose every text ranks as `ranked` (entry, cosine), best first."""

    def __init__(self, ranked: list[tuple[int, float]]) -> None:
        self.ranked = ranked

    def similar_to(self, vector: object, limit: int) -> list[tuple[int, float]]:
        return self.ranked[:limit]


WHOLE = [(1, 0.55), (2, 0.50), (3, 0.40)]
VECTOR = np.zeros((1, 4), np.float32)


@pytest.mark.parametrize(
    ("unvoiced", "taken"),
    [
        # the same first, nearer, clear of its own second: its cosine, the whole's runners-up
        ([(1, 0.66), (2, 0.66 - UNVOICED_LEAD - 0.01)], [(1, 0.66), (2, 0.50), (3, 0.40)]),
        # its runners-up near it too: the whole's reading stands
        ([(1, 0.66), (2, 0.66 - UNVOICED_LEAD + 0.01)], WHOLE),
        # another entry first: never moved there
        ([(2, 0.70), (1, 0.50)], WHOLE),
        # the same first, but farther
        ([(1, 0.50), (2, 0.30)], WHOLE),
    ],
)
def test_the_unvoiced_meaning_taken_only_where_it_agrees_nearer(
    unvoiced: list[tuple[int, float]], taken: list[tuple[int, float]]
) -> None:
    assert _unvoiced_agreeing(WHOLE, _Meaning(unvoiced), VECTOR) == taken  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        # no card on main (the asked entry offered first): voice59's probes, strict xfails there
        ("farmer here, sorry if this is dumb: what is overfitting?", "overfitting"),
        (
            "chef, long one, sorry: what's it called when the model writes out its reasoning step"
            " by step before the answer?",
            "chain-of-thought",
        ),
    ],
)
def test_define_mentions_and_the_cli_read_the_meaning_without_the_opening(
    bundled_index: SearchIndex, query: str, asked: str
) -> None:
    # `search_asked` is how /define, a mention and `glossary-bot search` read a text; the reading
    # lives in `SearchIndex._search` under it
    result = search_asked(bundled_index, query)
    the_asked_card(result, asked, "")
    assert result.query == query  # the result keeps the text as typed
