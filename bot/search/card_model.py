"""A learned second look at `_decide`'s answer, over the evidence the stages already computed
(issue #12, tasks rerank21, rerank22 and rerank23).

Where the meaning ran and the rules answered of their own accord (`_decide`'s card or offer, no
later rule's on purpose), two logistic models of "the first choice is right" weigh it: an offer
whose first choice the offers' model is sure enough of (`promote`) becomes its card, a card the
cards' model doubts most (under `keep`) becomes an offer of the same entry. Both thresholds were
chosen together, so that the cards made pay for themselves. Weights in `card_model.json` with
how they were made (`python tools/fit_card_model.py`, which writes that file;
bench/results/semantic.md "rerank23"). No words of the query and no entry ids are features:
only scores, ranks, cosines and the shape of the text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.search.fusion import OFF_DOMAIN_COSINE
from bot.search.ranking import Candidate

WEIGHTS = Path(__file__).with_name("card_model.json")
NAME_STRATEGIES = frozenset(
    {"exact", "id", "server-alias", "alias", "acronym", "expansion", "plural", "prefix", "fuzzy"}
)
FEATURES = (
    "by_meaning",  # the first choice's strategy: the meaning
    "by_description",  # ... a description
    "by_mention",  # ... a name written in a sentence (match-term)
    "by_name",  # ... a name, alias, prefix or typo
    "score",  # the first choice's fused score / 100
    "lead",  # its lead over the runner-up in the fused pool / 10 (clipped -2..4)
    "cos1",  # the meaning's first cosine
    "gap12",  # ... its lead over the second
    "cos_first",  # the first choice's cosine (the meaning's last if unranked)
    "meaning_first",  # the first choice is the meaning's first
    "meaning_rank",  # its rank in the meaning's ten / 10 (1.0: unranked)
    "lex_score",  # its lexical score before the meaning / 100 (0: not pooled)
    "lexical_first",  # it led the lexical pool before the meaning
    "lex_top",  # the lexical pool's best score / 100
    "written",  # its name is written in the text
    "n_written",  # names written (at most 3)
    "asked_any",  # a name is asked about
    "asked_first",  # ... and it is the first choice
    "question",  # question-shaped
    "log_words",  # log(1 + words)
    "far",  # the meaning finds every entry far (under OFF_DOMAIN_COSINE)
    "long_description",
    "runner_by_meaning",  # the fused runner-up's strategy is the meaning
    "runner_meaning_first",  # the runner-up is the meaning's first
    "cos_margin",  # the first choice's cosine over the best other ranked cosine
    "gap13",  # the meaning's first cosine over its third
    "close",  # other pooled entries within 5 of the first choice's score (at most 3)
    "context_clause",  # a told clause comes before the question (`reading.clauses`)
    "subject_read",  # the rules read a subject, a name written or agreed on
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What `SearchIndex._search` knew when the rules answered (the meaning having run)."""

    similar: Sequence[tuple[int, float]]  # the meaning's entries and cosines, best first
    lexical: Mapping[int, Candidate]  # the pool before the meaning was folded in
    fused: Mapping[int, Candidate]  # ... after, as `_decide` read it
    asked: tuple[int, int] | None  # the name asked about (`fusion.asked_about`)
    written: Collection[int]  # the entries whose names the text writes
    long_description: bool
    question: bool
    words: int
    context_clause: bool
    subject_read: bool


def features(first: int, strategy: str, evidence: Evidence) -> tuple[float, ...]:
    """The evidence for `first` (a position), the answer's first choice found by `strategy`,
    in `FEATURES` order."""
    similar, before, after = evidence.similar, evidence.lexical, evidence.fused
    cosines = dict(similar)
    ranks = {e: r for r, (e, _) in enumerate(similar)}
    cos1 = similar[0][1] if similar else 0.0
    cos2 = similar[1][1] if len(similar) > 1 else 0.0
    cos3 = similar[2][1] if len(similar) > 2 else 0.0
    mine = after[first].score if first in after else 0.0
    others = [c.score for e, c in after.items() if e != first]
    runner = max(
        ((e, c) for e, c in after.items() if e != first), key=lambda i: i[1].rank, default=None
    )
    lexical = before.get(first)
    lex_ranked = sorted(before.items(), key=lambda i: i[1].rank, reverse=True)
    cos_first = cosines.get(first, similar[-1][1] if similar else 0.0)
    asked = evidence.asked
    return (
        float(strategy == "semantic"),
        float(strategy == "description"),
        float(strategy == "match-term"),
        float(strategy in NAME_STRATEGIES),
        min(mine, 120.0) / 100,
        max(-2.0, min(4.0, (mine - max(others, default=0.0)) / 10)),
        cos1,
        cos1 - cos2,
        cos_first,
        float(bool(similar) and similar[0][0] == first),
        ranks.get(first, 10) / 10,
        lexical.score / 100 if lexical else 0.0,
        float(bool(lex_ranked) and lex_ranked[0][0] == first),
        lex_ranked[0][1].score / 100 if lex_ranked else 0.0,
        float(first in evidence.written),
        float(min(3, len(evidence.written))),
        float(asked is not None),
        float(asked is not None and asked[0] == first),
        float(evidence.question),
        math.log1p(evidence.words),
        float(cos1 < OFF_DOMAIN_COSINE),
        float(evidence.long_description),
        float(runner is not None and runner[1].strategy == "semantic"),
        float(runner is not None and bool(similar) and similar[0][0] == runner[0]),
        cos_first - max((c for e, c in similar if e != first), default=0.0),
        cos1 - cos3,
        float(min(3, sum(1 for s in others if s >= mine - 5))),
        float(evidence.context_clause),
        float(evidence.subject_read),
    )


@dataclass(frozen=True, slots=True)
class Logistic:
    """One logistic model of "the first choice is right" and the probability it acts at."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    @classmethod
    def made(cls, made: dict) -> Logistic:  # type: ignore[type-arg]
        return cls(
            tuple(made["mean"]),
            tuple(made["scale"]),
            tuple(made["weights"]),
            made["bias"],
            made["threshold"],
        )

    def probability(self, values: Sequence[float]) -> float:
        """How likely the first choice whose `features` are `values` is right."""
        z = self.bias + sum(
            w * (v - m) / s
            for w, v, m, s in zip(self.weights, values, self.mean, self.scale, strict=True)
        )
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True, slots=True)
class CardModel:
    offers: Logistic  # an offer's first choice becomes the card from its threshold up
    cards: Logistic  # a card stays one from its threshold up, else it is offered

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> CardModel:
        made = json.loads(path.read_text(encoding="utf-8"))
        if tuple(made["features"]) != FEATURES:
            raise ValueError(f"{path}: fitted on other features; run tools/fit_card_model.py")
        return cls(Logistic.made(made["offers"]), Logistic.made(made["cards"]))

    def card(self, values: Sequence[float], carded: bool) -> bool:
        """Whether the first choice, `carded` or offered by the rules, is the card."""
        model = self.cards if carded else self.offers
        return model.probability(values) >= model.threshold


@cache
def card_model() -> CardModel:
    return CardModel.load()
