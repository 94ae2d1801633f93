"""A calibrated confidence: P(an offer's first choice is right), learned from the signals the
search already computes, and the card it makes past `OFFER_CARDED` (issue #12 part 2, task
calib73; bench/results/semantic.md "calib73").

One logistic regression over an offer's signals (`signals`: its strategy, score and lead, the
meaning's cosines and leads and the lexical stage's before the meaning is folded in, whether
they agree, the names written and asked about, the text's length and form), fitted on every
tuning slice's offers by `bench/calib73_fit.py` (Newton's method, L2 1.0: no randomness) and
judged only by cross-validation that leaves whole slices out. `OFFER_CARDED` is the lowest
threshold at which the out-of-fold cards were never wrong (calib74's refit on dev..dev27: 16
right, 0 wrong; calib73's held out carded 32 right for 1 wrong). A card under a threshold is not
withheld: no threshold reached four wrong cards withheld per right one out of fold (calib74,
with the entry's kind, its names' nearest match, a fix asked for and the margin over its near
neighbours too: the best, 14 : 37). Bundled entries only: a server's terms were not fitted on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.glossary.keys import normalize

# The strategies that name an entry outright, read as one signal
NAMED = frozenset({"exact", "id", "alias", "server-alias", "acronym", "expansion", "plural"})
STRATEGIES = ("match-term", "description", "semantic", "fuzzy", "prefix")


@dataclass(frozen=True, slots=True)
class Fused:
    """What `fusion.fuse` was given for a text: the meaning's ten (position, cosine) best first,
    the lexical pool before it (position, score, strategy, as pooled), the names written, the
    name asked about, and how the meaning read the text."""

    similar: tuple[tuple[int, float], ...]
    before: tuple[tuple[int, float, str], ...]
    written: frozenset[int]
    asked: int | None
    claused: bool
    unnamed: bool
    long_description: bool
    field: float


def title_share(title: str, text: str) -> float:
    """The share of the title's words (of 3+ letters) written in the text."""
    words = [w for w in normalize(title).split() if len(w) >= 3]
    said = set(normalize(text).split())
    return sum(w in said for w in words) / len(words) if words else 0.0


class Signals(NamedTuple):
    """An offer's first choice's signals as the search computed them (`signals`), the one list of
    them: the bot turns them straight into the model's numbers (`numbers`), the bench writes
    them by name (`Signals._asdict`, `bench/calib73_table.py`) and reads them back (`of`)."""

    strategy: str | None
    score: float
    margin: float
    n_offers: int
    meaning_ran: bool
    cos1: float | None
    lead: float | None
    first_cos: float | None
    first_rank: int | None
    agree: bool
    lex_first: bool
    lex_score: float | None
    lex_lead: float
    lex_n: int
    written: bool
    n_written: int
    asked: bool
    asked_other: bool
    title_share: float
    near: int
    claused: bool
    unnamed: bool
    long_description: bool
    field: float | None
    words: int
    chars: int
    question: bool
    compared: bool
    next_related: bool
    next_category: bool


def of(r: Mapping[str, Any]) -> Signals:
    """A record `bench/calib73_table.py` wrote, read back."""
    return Signals._make(r.get(name) for name in Signals._fields)


def numbers(s: Signals) -> list[float]:
    """The model's numbers for `s`, in the order of `NAMES` (a missing one 0, with its own flag
    where it can be)."""

    def num(value: float | None, default: float = 0.0) -> float:
        return default if value is None else float(value)

    return [
        float(s.strategy in NAMED),
        *(float(s.strategy == strategy) for strategy in STRATEGIES),
        num(s.score) / 100,
        min(num(s.margin), 30.0) / 30,
        num(s.n_offers) / 5,
        float(s.meaning_ran),
        num(s.cos1),
        num(s.lead),
        num(s.first_cos),
        float(s.first_cos is None),
        num(s.first_rank, 10) / 10,
        float(s.agree),
        float(s.lex_first),
        num(s.lex_score) / 100,
        float(s.lex_score is None),
        min(num(s.lex_lead), 30.0) / 30,
        math.log1p(num(s.lex_n)),
        float(s.written),
        num(s.n_written),
        float(s.asked),
        float(s.asked_other),
        num(s.title_share),
        num(s.near) / 10,
        float(s.claused),
        float(s.unnamed),
        float(s.long_description),
        num(s.field),
        math.log(max(s.words, 1)),
        math.log(max(s.chars, 1)),
        float(s.question),
        float(s.compared),
        float(s.next_related),
        float(s.next_category),
    ]


NAMES = (
    "named",
    *STRATEGIES,
    "score",
    "margin",
    "n_offers",
    "meaning_ran",
    "cos1",
    "lead",
    "first_cos",
    "first_cos_none",
    "first_rank",
    "agree",
    "lex_first",
    "lex_score",
    "lex_none",
    "lex_lead",
    "lex_n",
    "written",
    "n_written",
    "asked",
    "asked_other",
    "title_share",
    "near",
    "claused",
    "unnamed",
    "long_description",
    "field",
    "log_words",
    "log_chars",
    "question",
    "compared",
    "next_related",
    "next_category",
)


def signals(
    fused: Fused | None,
    first: int,
    nxt: int | None,
    offers: Sequence[Any],
    *,
    text: str,
    title: str,
    written_whole: bool,
    compared: bool,
    question: bool,
    related: bool,
    same_category: bool,
) -> Signals:
    """An offer's signals: `first` and `nxt` the first two offers' positions, `offers` the offers
    (`Suggestion`s), `text` as typed, `title` the first's."""
    similar = fused.similar if fused else ()
    before = fused.before if fused else ()
    lex = sorted(before, key=lambda i: -i[1])
    cos1 = similar[0][1] if similar else None
    score = offers[0].score
    rank = next((r for r, (e, _) in enumerate(similar) if e == first), None)
    return Signals(
        strategy=offers[0].strategy,
        score=score,
        margin=score - offers[1].score if len(offers) > 1 else 99.0,
        n_offers=len(offers),
        meaning_ran=fused is not None,
        cos1=cos1,
        lead=similar[0][1] - similar[1][1] if len(similar) > 1 else None,
        first_cos=None if rank is None else similar[rank][1],
        first_rank=(10 if rank is None else rank) if fused else None,
        agree=bool(similar) and similar[0][0] == first,
        lex_first=bool(lex) and lex[0][0] == first,
        lex_score=next((s for e, s, _ in before if e == first), None),
        lex_lead=(lex[0][1] - lex[1][1]) if len(lex) > 1 else 99.0,
        lex_n=len(lex),
        written=written_whole or (fused is not None and first in fused.written),
        n_written=len(fused.written) if fused else 0,
        asked=fused is not None and fused.asked == first,
        asked_other=fused is not None and fused.asked is not None and fused.asked != first,
        title_share=title_share(title, text),
        near=sum(c >= cos1 - 0.03 for _, c in similar) if cos1 is not None else 0,
        claused=bool(fused and fused.claused),
        unnamed=bool(fused and fused.unnamed),
        long_description=bool(fused and fused.long_description),
        field=fused.field if fused else None,
        words=len(text.split()),
        chars=len(text),
        question=question,
        compared=compared,
        next_related=nxt is not None and related,
        next_category=nxt is not None and same_category,
    )


def p_right(values: Sequence[float]) -> float:
    """The model's P(the first choice is right) for `signals`' numbers."""
    z = BIAS + sum(w * (v - m) / s for v, m, s, w in zip(values, MEAN, SCALE, WEIGHTS, strict=True))
    return 1 / (1 + math.exp(-z))


# An offer whose first choice the model gives at least this is that choice's card.
OFFER_CARDED = 0.948
# The model, as `bench/calib73_fit.py --numbers` prints it (test_calibration checks they agree).
# fmt: off
MEAN: tuple[float, ...] = (0.000628535512256, 0.137020741672, 0.0898805782527, 0.766184789441, 0.00628535512256, 0, 0.828368950346, 0.206702283679, 0.711879321182, 0.983029541169, 0.558145584371, 0.0554876966551, 0.516826855956, 0.0823381521056, 0.127404148334, 0.720930232558, 0.40100565682, 0.481633164028, 0.248271527341, 0.432129756436, 1.93898534279, 0.154619736015, 0.605279698303, 0.0666247642992, 0.203016970459, 0.139524408129, 0.161847894406, 0.0301697045883, 0.525455688246, 0.169076052797, 0.276351357579, 2.80176189804, 4.5166407883, 0.519798868636, 0, 0.318038969202, 0.470144563168,)
SCALE: tuple[float, ...] = (0.0250627304053, 0.343869245533, 0.286010594044, 0.423256019296, 0.0790306866574, 1, 0.0552070579693, 0.364024620438, 0.319338451184, 0.129160606835, 0.119133858883, 0.053098731691, 0.17836639371, 0.274879211316, 0.29088950811, 0.44854189586, 0.490102152636, 0.313145459057, 0.432010157349, 0.366555243343, 0.288600860742, 0.361541800142, 0.780866273671, 0.249371018928, 0.402245049894, 0.303628642857, 0.107582331299, 0.171054066053, 0.499351587497, 0.374819077913, 0.123372753476, 0.59317487806, 0.582439794182, 0.49960785102, 1, 0.465714701583, 0.499107856972,)
WEIGHTS: tuple[float, ...] = (-0.0899039449077, -0.129078127041, -0.0268927857454, 0.137323017158, -0.0479805457849, 0, -0.649474705864, -0.245572725141, -0.164784934023, -0.27404599267, -0.860920540319, 0.280997904529, 1.56442863023, 0.806452954765, -0.233667921851, 0.0661815327628, 0.660334765194, 1.86822785623, 0.350026263652, 0.192237977816, -0.108853181463, -0.799009186093, 0.147495291981, 0.00741294983603, 0.033844524854, -0.0795797987565, -0.18095513808, -0.0083745693014, -0.153813801472, 0.105390540188, 0.17439242492, 0.103683940502, 0.18062022425, 0.196014767112, 0, -0.0358062302308, 0.140886726959,)
BIAS = -0.466443649002
# fmt: on
