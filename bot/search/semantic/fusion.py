"""Fusing the semantic stage with the lexical pool, on the lexical stages' score scale.

A cosine similarity becomes a score through one linear map (`semantic_score`), set on the
calibration slice so that a semantic score means what a lexical one does: at `MATCH_SCORE` and
`MATCH_MARGIN` a card is as rarely wrong whichever stage found it, so the one decision table in
`ranking` serves both. Agreement is evidence: an entry both stages rank gets `AGREEMENT_BONUS`
over the better of its two scores; a weak lexical lead (a description or a name inside a
sentence) that the meaning does not support at all loses `DISAGREEMENT_PENALTY`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.search.ranking import Candidate, Pool

SEMANTIC_CANDIDATES = 10
# score = PIVOT_SCORE + SLOPE * (cosine - PIVOT_COSINE), at most MAX_SCORE: a semantic lead
# of `MATCH_MARGIN` / SLOPE in cosine is a clear lead.
PIVOT_COSINE = 0.5
PIVOT_SCORE = 86.0
SLOPE = 100.0
MAX_SCORE = 97.0  # below every name: a meaning never outranks a name typed outright
AGREEMENT_BONUS = 4.0
AGREEMENT_FLOOR = 60.0  # both scores at least this for the bonus
DISAGREEMENT_PENALTY = 6.0
WEAK_LEXICAL = frozenset({"description", "match-term"})


def semantic_score(cosine: float) -> float:
    return min(MAX_SCORE, PIVOT_SCORE + SLOPE * (cosine - PIVOT_COSINE))


def fuse(pool: Pool, similar: Sequence[tuple[int, float]]) -> None:
    """Fold the semantic stage's best entries (position, cosine) into `pool`."""
    semantic = {entry: semantic_score(cosine) for entry, cosine in similar}
    for entry, found in list(pool.by_entry.items()):
        if entry not in semantic and found.strategy in WEAK_LEXICAL:
            pool.by_entry[entry] = Candidate(found.score - DISAGREEMENT_PENALTY, found.strategy)
    for entry, score in semantic.items():
        found = pool.by_entry.get(entry)
        if found is None:
            pool.by_entry[entry] = Candidate(score, "semantic")
            continue
        agree = min(found.score, score) >= AGREEMENT_FLOOR
        best = max(found.score, score) + (AGREEMENT_BONUS if agree else 0.0)
        strategy = "semantic" if score > found.score else found.strategy
        pool.by_entry[entry] = Candidate(min(best, MAX_SCORE + AGREEMENT_BONUS), strategy)
