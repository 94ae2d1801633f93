"""A calibrated confidence: P(an offer's first choice is right), learned from the signals the
search already computes, and the card it makes past `OFFER_CARDED` (issue #12 part 2, task
calib73; bench/results/semantic.md "calib73").

One logistic regression over an offer's signals (`signals`: its strategy, score and lead, the
meaning's cosines and leads and the lexical stage's before the meaning is folded in, whether
they agree, the names written and asked about, the text's length and form), fitted on every
tuning slice's offers by `bench/calib73_fit.py` (Newton's method, L2 1.0: no randomness) and
judged only by cross-validation that leaves whole slices out. `OFFER_CARDED` is the lowest
threshold at which the out-of-fold cards were wrong at most main's held-out share (calib75's
refit on dev..dev28 after long74 and fix74: 23 right, 1 wrong; calib74's on dev..dev27 16 : 0;
calib73's held out carded 32 right for 1 wrong). A card under a threshold is not
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
OFFER_CARDED = 0.937
# The model, as `bench/calib73_fit.py --numbers` prints it (test_calibration checks they agree):
# fitted on `bench/results/calib75_offers.jsonl.gz` (how it was made: `calib73_fit.OFFERS`).
# fmt: off
MEAN: tuple[float, ...] = (0.000607533414338, 0.140340218712, 0.091737545565, 0.760631834751, 0.00668286755772, 0, 0.829081409478, 0.206915755367, 0.708383961118, 0.982989064399, 0.558613702447, 0.0560108225426, 0.515850774763, 0.0850546780073, 0.130133657351, 0.721749696233, 0.407654921021, 0.48871273553, 0.240583232078, 0.430727367325, 1.93757287512, 0.156743620899, 0.60085054678, 0.0674362089915, 0.202916160389, 0.139671931956, 0.161482381531, 0.0437424058323, 0.526731470231, 0.163426488457, 0.276674877704, 2.78656339485, 4.50102332681, 0.520048602673, 0, 0.319562575942, 0.466585662211,)
SCALE: tuple[float, ...] = (0.0246407044844, 0.347339663332, 0.288655102672, 0.426697840063, 0.081475191555, 1, 0.0559975757326, 0.363524069278, 0.319424129974, 0.129311885267, 0.119762744165, 0.0534632653381, 0.181120465801, 0.278963043711, 0.294858091983, 0.448137336338, 0.491398398846, 0.311835939955, 0.427437645184, 0.366716594182, 0.289882334805, 0.363558878597, 0.776617118655, 0.250775929284, 0.402170600917, 0.303829436617, 0.109616538597, 0.204521411506, 0.499284917156, 0.36975433916, 0.12353708093, 0.585927503815, 0.575330630381, 0.49959789184, 1, 0.466307126258, 0.498882232626,)
WEIGHTS: tuple[float, ...] = (-0.0941839953981, -0.10432025364, -0.0221477759009, 0.119521034544, -0.0742677232689, 0, -0.622756609124, -0.24486288729, -0.195779909826, -0.235516718732, -0.688201517883, 0.225045945839, 1.39573261612, 0.789584017773, -0.282631705504, 0.113015012906, 0.661422500924, 1.69428689612, 0.260835046828, 0.165012807278, -0.191900560844, -0.857925441641, 0.136392240704, 0.0737665362461, -0.00870956954227, -0.0726323330109, -0.169218580837, -0.0250320945752, -0.260105726981, 0.0885272391779, 0.166613361627, 0.283249821202, 0.0213893594835, 0.163451918811, 0, -0.0511325161953, 0.120152293291,)
BIAS = -0.416558626527
# fmt: on
