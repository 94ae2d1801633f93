"""A calibrated confidence: P(an offer's first choice is right), learned from the signals the
search already computes, and the card it makes past `OFFER_CARDED` (issue #12 part 2, task
calib73; bench/results/semantic.md "calib73").

One logistic regression over an offer's signals (`signals`: its strategy, score and lead, the
meaning's cosines and leads and the lexical stage's before the meaning is folded in, whether
they agree, the names written and asked about, the text's length and form), fitted on every
tuning slice's offers by `bench/calib73_fit.py` (Newton's method, L2 1.0: no randomness) and
judged only by cross-validation that leaves whole slices out. `OFFER_CARDED` is the lowest
threshold at which the out-of-fold cards were never wrong (15 right, 0 wrong); held out it
carded 32 right for 1 wrong. A card under a threshold was not withheld: no threshold reached
four wrong cards withheld per right one out of fold (the best, 6 : 19).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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


def signals(r: Mapping[str, Any]) -> list[float]:
    """A first choice's signals (`record`'s, as `bench/calib73_table.py` dumps them) as the
    model's numbers, in the order of `NAMES` (a missing one 0, with its own flag where it can
    be)."""

    def num(key: str, default: float = 0.0) -> float:
        v = r.get(key)
        return default if v is None else float(v)

    return [
        float(r["strategy"] in NAMED),
        *(float(r["strategy"] == s) for s in STRATEGIES),
        num("score") / 100,
        min(num("margin"), 30.0) / 30,
        num("n_offers") / 5,
        float(r["meaning_ran"]),
        num("cos1"),
        num("lead"),
        num("first_cos"),
        float(r.get("first_cos") is None),
        num("first_rank", 10) / 10,
        float(r["agree"]),
        float(r["lex_first"]),
        num("lex_score") / 100,
        float(r.get("lex_score") is None),
        min(num("lex_lead"), 30.0) / 30,
        math.log1p(num("lex_n")),
        float(r["written"]),
        num("n_written"),
        float(r["asked"]),
        float(r["asked_other"]),
        num("title_share"),
        num("near") / 10,
        float(r["claused"]),
        float(r["unnamed"]),
        float(r["long_description"]),
        num("field"),
        math.log(max(r["words"], 1)),
        math.log(max(r["chars"], 1)),
        float(r["question"]),
        float(r["compared"]),
        float(r["next_related"]),
        float(r["next_category"]),
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


def record(
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
) -> dict[str, Any]:
    """An offer's signals by name: `first` and `nxt` the first two offers' positions, `offers`
    the offers (`Suggestion`s), `text` as typed, `title` the first's."""
    similar = fused.similar if fused else ()
    ranks = {e: r for r, (e, _) in enumerate(similar)}
    before = fused.before if fused else ()
    lex = sorted(before, key=lambda i: -i[1])
    cos1 = similar[0][1] if similar else None
    score = offers[0].score
    return {
        "strategy": offers[0].strategy,
        "score": score,
        "margin": score - offers[1].score if len(offers) > 1 else 99.0,
        "n_offers": len(offers),
        "meaning_ran": fused is not None,
        "cos1": cos1,
        "lead": similar[0][1] - similar[1][1] if len(similar) > 1 else None,
        "first_cos": dict(similar).get(first),
        "first_rank": ranks.get(first, 10) if fused else None,
        "agree": bool(similar) and similar[0][0] == first,
        "lex_first": bool(lex) and lex[0][0] == first,
        "lex_score": next((s for e, s, _ in before if e == first), None),
        "lex_lead": (lex[0][1] - lex[1][1]) if len(lex) > 1 else 99.0,
        "lex_n": len(lex),
        "written": written_whole or (fused is not None and first in fused.written),
        "n_written": len(fused.written) if fused else 0,
        "asked": fused is not None and fused.asked == first,
        "asked_other": fused is not None and fused.asked is not None and fused.asked != first,
        "title_share": title_share(title, text),
        "near": sum(c >= cos1 - 0.03 for _, c in similar) if cos1 is not None else 0,
        "claused": bool(fused and fused.claused),
        "unnamed": bool(fused and fused.unnamed),
        "long_description": bool(fused and fused.long_description),
        "field": fused.field if fused else None,
        "words": len(text.split()),
        "chars": len(text),
        "question": question,
        "compared": compared,
        "next_related": nxt is not None and related,
        "next_category": nxt is not None and same_category,
    }


def p_right(values: Sequence[float]) -> float:
    """The model's P(the first choice is right) for `signals`' numbers."""
    z = BIAS + sum(w * (v - m) / s for v, m, s, w in zip(values, MEAN, SCALE, WEIGHTS, strict=True))
    return 1 / (1 + math.exp(-z))


# An offer whose first choice the model gives at least this is that choice's card.
OFFER_CARDED = 0.946
# The model, as `bench/calib73_fit.py --numbers` prints it (test_calibration checks they agree).
# fmt: off
MEAN: tuple[float, ...] = (0.000649772579597, 0.139051332034, 0.0890188434048, 0.764782326186, 0.00649772579597, 0, 0.828054580897, 0.210647606671, 0.709941520468, 0.982456140351, 0.556602724105, 0.0555650567935, 0.515213266489, 0.083820662768, 0.127810266407, 0.723196881092, 0.402209226771, 0.479525980739, 0.251461988304, 0.434419333497, 1.93718326556, 0.156595191683, 0.607537361923, 0.0682261208577, 0.204678362573, 0.142235217674, 0.162183235867, 0.0305393112411, 0.522417153996, 0.166991552956, 0.276228310178, 2.798685004, 4.51280354479, 0.524366471735, 0, 0.311890838207, 0.464587394412,)
SCALE: tuple[float, ...] = (0.0254823541925, 0.346000085395, 0.28477094115, 0.424134789589, 0.0803461595563, 1, 0.0551698506481, 0.364090333655, 0.320044967943, 0.131286224097, 0.119596311923, 0.0535212400674, 0.178917310879, 0.277118673606, 0.292520716291, 0.447418319105, 0.490343720946, 0.314046827389, 0.433853496865, 0.367259153325, 0.293430611753, 0.363418680897, 0.779427059449, 0.252133530675, 0.403466393232, 0.305981143469, 0.108084702927, 0.172065864453, 0.499497218417, 0.372968328679, 0.123361810429, 0.595141287688, 0.584378224247, 0.499405922127, 1, 0.463265521326, 0.498744370761,)
WEIGHTS: tuple[float, ...] = (-0.0920091937496, -0.096931833572, -0.0202370232575, 0.106584967845, -0.0443137943786, 0, -0.623610344257, -0.24530634862, -0.186683078487, -0.316112443191, -0.808716851663, 0.259526665683, 1.55101805067, 0.821661864179, -0.282895832594, 0.0666893168757, 0.636583835847, 1.8513926489, 0.359571481518, 0.168550098182, -0.0697345993891, -0.796284528467, 0.118455348888, 0.000550847225544, 0.01461805073, -0.0765159446634, -0.183606159525, -0.00122966467935, -0.162957793635, 0.0868661856975, 0.160130749216, 0.144952409028, 0.118554620007, 0.1940607736, 0, -0.0333383658338, 0.140940048535,)
BIAS = -0.469395536303
# fmt: on
