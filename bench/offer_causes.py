"""Why a right entry is offered first but gets no card, and which gate let a wrong card through.

    python bench/offer_causes.py [--slices dev,calib,...] [--rows]

Tuning slices only (held-out slices are refused). For every question and description row whose
answer is an offer with the right entry first ("first, no card") or a card for another entry
("wrong card"), it names the step of `SearchIndex._search` that decided it, read by wrapping
the steps (nothing in `bot/search` changes): `_decide`'s reasons (the best score under the card
bar, by the strategy that scored it; a lead under the margin, by the runner-up's strategy; a
sentence far from every entry) and the later steps that turn a card into an offer
(`_narrower_offered`, `_described_offered`, `_tied_offered`, `_unless_everyday`). Counts by
cause; `--rows` lists the rows too.

A second table does the same for every wrong card and every off-topic row's card: the step
that made the card (named outright; in `fuse`, the name asked about lifted, with the rule that
read it as asked; both stages' first agreeing; the meaning alone over the bar; a lexical score
that stood), and the right entry's rank in the meaning's ten with its cosine, its lexical score
before the meaning was folded in and its place and score after.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.relevance_report import HELD_OUT  # noqa: E402
from bench.semantic_models import tuning_cases  # noqa: E402
from bot.glossary import load_glossary  # noqa: E402
from bot.search import SearchIndex  # noqa: E402
from bot.search import index as index_module  # noqa: E402
from bot.search.fusion import AGREEMENT_BONUS, MAX_SCORE, semantic_score  # noqa: E402
from bot.search.questions import QuestionRules  # noqa: E402
from bot.search.ranking import MATCH_MARGIN, MATCH_SCORE  # noqa: E402
from bot.search.relevance import OFF_TOPIC_KINDS, Case  # noqa: E402
from bot.search.results import SearchResult  # noqa: E402

TUNING = (
    "dev",
    "calib",
    "dev2",
    "dev3",
    "dev4",
    "dev5",
    "dev6",
    "dev7",
    "dev8",
    "dev9",
    "dev10",
    "dev11",
    "dev12",
    "dev13",
    "dev14",
    "dev15",
    "dev16",
    "dev17",
    "dev18",
    "everyday",
    "everyday2",
    "everyday3",
    "chat",
)
CAPPED = MATCH_SCORE - MATCH_MARGIN - 0.1
# The rules after `_decide` that `_wrap` records, a "rule" step a call (the answer given, the
# answer returned, the other arguments): the first four may turn a card into an offer (`cause`
# names the first that did); `_unless_everyday`'s answer is `card_table`'s, the firings of
# `_asked_name_offered` `third50_offers`'.
RULES = (
    "_narrower_offered",
    "_described_offered",
    "_tied_offered",
    "_unless_everyday",
    "_asked_name_offered",
)
DEMOTING = RULES[:4]
# The rules after those that `_wrap` leaves alone, each taking the answer first: traced where
# they change it by bench/cause57_causes.py (`wrap_rules(LATER, "later", changed_only=True)`).
LATER = (
    "_plainly_described",
    "_neighbour_meant",
    "_place_offered",
    "_described_nothing",
    "_stated_name_yields",
    "_pasted_code_offered",
    "_bare_paste_offered",
    "_unranked_off_field",
    "_offered_off_field",
)

# The steps `_wrap` records, in the order they ran; `traced_cases` clears it for each case.
trace: list[dict[str, Any]] = []


def _decide_reason(pool: Any, far: bool) -> str:
    ranked = pool.ranked()
    if not ranked:
        return "nothing pooled"
    top = ranked[0][1]
    runner = ranked[1][1] if len(ranked) > 1 else None
    if top.score < MATCH_SCORE:
        if top.strategy == "semantic" and abs(top.score - CAPPED) < 0.01:
            return "below bar: meaning capped (cosine < 0.75, lead < 0.2, no agreement)"
        if top.strategy == "semantic":
            return "below bar: meaning uncapped but under 88"
        if top.strategy == "match-term" and abs(top.score - 80.0) < 0.01:
            return "below bar: a name written (mention 80), the meaning not agreeing"
        return f"below bar: {top.strategy} {top.score:.0f}"
    if runner is not None and top.score - runner.score < MATCH_MARGIN:
        return f"margin: {top.strategy} over {runner.strategy} by < 5"
    if far:
        return "far from every entry (OFF_DOMAIN_COSINE)"
    return "near spelling names another"


def _wrap() -> None:
    """Record, for each `_search` call, the text it read, `fuse`'s inputs and pools (and the
    meaning's lead), the pool `_decide` reads with its answer and reason, each rule of `RULES`
    after it, and the question rules' subjects: the one tracing every cause table reads."""
    search = SearchIndex._search

    def traced_search(self, query, overlay):  # type: ignore[no-untyped-def]
        trace.append({"step": "search", "query": query})
        return search(self, query, overlay)

    SearchIndex._search = traced_search  # type: ignore[method-assign]
    decide = SearchIndex._decide

    def traced_decide(self, pool, query, normalized, core, *, far=False):  # type: ignore[no-untyped-def]
        result = decide(self, pool, query, normalized, core, far=far)
        ranked = pool.ranked()
        step = {
            "step": "decide",
            "status": result.status,
            "card": result.status == "match",
            "reason": _decide_reason(pool, far) if result.status != "match" else "card",
            "pool": [(self.entries[e].id, round(c.score, 1), c.strategy) for e, c in ranked[:3]],
            "by_entry": dict(pool.by_entry),
        }
        trace.append(step)
        return result

    SearchIndex._decide = traced_decide  # type: ignore[method-assign]
    wrap_rules(RULES, "rule")
    fuse = index_module.fuse

    def traced_fuse(pool, similar, **options):  # type: ignore[no-untyped-def]
        lead = similar[0][1] - similar[1][1] if len(similar) > 1 else 0.0
        before = dict(pool.by_entry)
        fuse(pool, similar, **options)
        trace.append(
            {
                "step": "fuse",
                **options,  # question, asked_about, long_description, described_first
                "cosine": round(similar[0][1], 3) if similar else 0.0,
                "lead": round(lead, 3),
                "asked": options.get("asked_about"),
                "written": set(options.get("written", ())),
                "similar": list(similar),
                "before": before,
                "after": dict(pool.by_entry),
            }
        )

    index_module.fuse = traced_fuse
    _wrap_subject_rules()


def wrap_rules(names: tuple[str, ...], step: str, *, changed_only: bool = False) -> None:
    """Record each call of `SearchIndex`'s rules `names` (each takes the answer first) as a
    `step` with the answer given, the answer it gave and its other arguments; `changed_only`:
    only where it changed the answer's status, entry or first suggestion."""
    for name in names:
        original = getattr(SearchIndex, name)

        def traced(self, result, *args, _original=original, _name=name):  # type: ignore[no-untyped-def]
            after = _original(self, result, *args)
            moved = (after.status, after.entry, after.suggestions[:1]) != (
                result.status,
                result.entry,
                result.suggestions[:1],
            )
            if moved or not changed_only:
                trace.append(
                    {"step": step, "rule": _name, "given": result, "gave": after, "args": args}
                )
            return after

        setattr(SearchIndex, name, traced)


def _wrap_subject_rules() -> None:
    """Record which question rule read the subject `_search` then asks `fuse` about."""

    def recorded(rule: str, found: Any) -> None:
        if found is not None:
            trace.append({"step": "subject", "by": rule, "entry": found[0]})

    read = QuestionRules.read

    def traced_read(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        reading = read(self, *args, **kwargs)
        recorded("read", reading.subject)
        return reading

    QuestionRules.read = traced_read  # type: ignore[method-assign]
    for name in ("leading", "agreed", "closing_aside"):
        original = getattr(QuestionRules, name)

        def traced(self, *args, _original=original, _name=name):  # type: ignore[no-untyped-def]
            found = _original(self, *args)
            recorded(_name, found)
            return found

        setattr(QuestionRules, name, traced)
    more_specific = QuestionRules.more_specific

    def traced_specific(self, *args):  # type: ignore[no-untyped-def]
        found = more_specific(self, *args)
        recorded("more_specific", None if found is None else (found,))
        return found

    QuestionRules.more_specific = traced_specific  # type: ignore[method-assign]
    pointed = index_module._pointed_back_at

    def traced_pointed(*args):  # type: ignore[no-untyped-def]
        found = pointed(*args)
        recorded("pointed_back_at", found)
        return found

    index_module._pointed_back_at = traced_pointed


def cause(steps: list[dict[str, Any]]) -> str:
    """The step that made the first `_search` call's answer what it is."""
    demoted = [
        s["rule"]
        for s in steps
        if s["step"] == "rule"
        and s["rule"] in DEMOTING
        and s["given"].status == "match"
        and s["gave"].status != "match"
    ]
    if demoted:
        return f"card turned offer: {demoted[0]}"
    decided = next((s for s in steps if s["step"] == "decide"), None)
    if decided is None:
        return "named outright"
    ran = any(s["step"] == "fuse" for s in steps)
    return decided["reason"] + ("" if ran else " [no meaning run]")


def traced_start(
    parser: argparse.ArgumentParser, tuning: tuple[str, ...] = TUNING
) -> tuple[argparse.Namespace, set[str], SearchIndex]:
    """The start every cause table shares: `--slices` parsed (`tuning` by default; a held-out
    slice is always dropped), the search's steps traced (`_wrap`), the bundled index built."""
    parser.add_argument("--slices", default=",".join(tuning))
    args = parser.parse_args()
    slices = set(args.slices.split(",")) - HELD_OUT
    _wrap()
    return args, slices, SearchIndex.build(load_glossary())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", action="store_true")
    args, slices, index = traced_start(parser)
    offered: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    rows: list[str] = []
    for case, result, steps in traced_cases(index, slices, trace):
        first = result.best_id
        fuse_step = next((s for s in steps if s["step"] == "fuse"), {})
        detail = f"cos {fuse_step.get('cosine')} lead {fuse_step.get('lead')}"
        pool = next((s["pool"] for s in steps if s["step"] == "decide"), [])
        if case.kind in OFF_TOPIC_KINDS:
            if result.entry is not None:
                g = card_cause(steps, result, index)
                wrong[f"off-topic card: {g}"] += 1
                rows.append(
                    f"OFFTOPIC-CARD {case.slice} [{g}] {case.query!r} -> {first} {detail} {pool}"
                )
            continue
        if result.entry is None and case.accepts(first):
            c = cause(steps)
            offered[c] += 1
            rows.append(f"FIRST {case.slice} [{c}] {case.query!r} -> {first} {detail} {pool}")
        elif result.entry is not None and not case.accepts(result.entry.id):
            g = card_cause(steps, result, index)
            wrong[g] += 1
            rows.append(
                f"WRONG {case.slice} [{g}] {case.query!r} -> {result.entry.id} "
                f"(want {case.expected}) {detail} {right_entry(case, steps, index)} {pool}"
            )
    print("== right entry offered first, no card: by cause")
    for c, n in offered.most_common():
        print(f"{n:>5}  {c}")
    print(f"{sum(offered.values()):>5}  all")
    print("== wrong cards (and off-topic cards): by the step that made the card")
    for c, n in wrong.most_common():
        print(f"{n:>5}  {c}")
    print(f"{sum(wrong.values()):>5}  all")
    if args.rows:
        print("\n".join(sorted(rows)))
    return 0


def traced_cases(
    index: SearchIndex,
    slices: set[str],
    steps_of: list[dict[str, Any]],
    *,
    every_call: bool = False,
) -> Iterator[tuple[Case, SearchResult, list[dict[str, Any]]]]:
    """Every case of the `slices` (never a held-out one), searched once, with the steps of its
    first `_search` call that the wrapped functions appended to `steps_of` (a comparison searches
    its other side after; those are left out unless `every_call`)."""
    for case in tuning_cases(slices - HELD_OUT):
        steps_of.clear()
        result = index.search(case.query)
        starts = [i for i, s in enumerate(steps_of) if s["step"] == "search"]
        first = starts[1] if len(starts) > 1 and not every_call else len(steps_of)
        yield case, result, steps_of[:first]


# `row_verdict`'s answers, best first: the order a what-if prints its moves in.
VERDICTS = ("right", "offer-first", "offer-3", "offer-miss", "none", "wrong", "off-ok", "off-card")


def print_moves(heading: str, counts: Counter[tuple[str, str]]) -> None:
    """A what-if's verdicts before -> after (`counts` of (before, after) pairs), then its moves."""
    print(heading)
    for v in VERDICTS:
        b = sum(n for (x, _), n in counts.items() if x == v)
        a = sum(n for (_, y), n in counts.items() if y == v)
        if a or b:
            print(f"{v:<12} {b:>4} -> {a:>4}")
    print("moves: " + ", ".join(f"{x}->{y} {n}" for (x, y), n in counts.most_common() if x != y))


def row_verdict(case: Case, result: SearchResult) -> str:
    """What a row got, for a cause table: off-card / off-ok of an off-topic row; right / wrong of
    a card; offer-first, offer-3 (the right entry among the first three offers), offer-miss or
    none of the rest."""
    offers = [s.id for s in result.suggestions[:3]]
    if case.kind in OFF_TOPIC_KINDS:
        return "off-card" if result.entry else "off-ok"
    if result.entry is not None:
        return "right" if case.accepts(result.entry.id) else "wrong"
    if offers and case.accepts(offers[0]):
        return "offer-first"
    if any(case.accepts(o) for o in offers):
        return "offer-3"
    return "offer-miss" if offers else "none"


def first_choice(result: SearchResult) -> tuple[str | None, str | None]:
    """The card's id and strategy, or else the first offer's (None, None without either)."""
    if result.entry:
        return result.entry.id, result.strategy
    if result.suggestions:
        return result.suggestions[0].id, result.suggestions[0].strategy
    return None, None


def card_cause(steps: list[dict[str, Any]], result: Any, index: SearchIndex) -> str:
    """The step that made `result`'s card (the first `_search` call's steps)."""
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    if not any(s["step"] == "decide" for s in steps):
        return f"named outright: {result.strategy}"
    if fused is None:
        return f"lexical, no meaning run: {result.strategy}"
    card = index.positions[result.entry.id]
    before, after = fused["before"].get(card), fused["after"][card]
    cosines = dict(fused["similar"])
    asked = fused["asked"]
    if asked and asked[0] == card:
        return f"asked-about name lifted, read by {_asked_by(steps, fused)}"
    if after.strategy != "semantic":
        return f"lexical score stood: {after.strategy}"
    if before is None:
        return "meaning alone over the bar" + ("" if not asked else ", over the name asked")
    # agreement adds its bonus over the better of the two scores, the meaning's uncapped
    alone = max(before.score, semantic_score(cosines.get(card, 0.0)))
    if after.score - alone >= AGREEMENT_BONUS - 0.01 or after.score >= MAX_SCORE:
        how = "a name written" if card in fused["written"] else before.strategy
        return f"both stages' first agree ({how})" + ("" if not asked else ", over the name asked")
    return "meaning alone over the bar" + ("" if not asked else ", over the name asked")


def _asked_by(steps: list[dict[str, Any]], fused: dict[str, Any]) -> str:
    asked = fused["asked"][0]
    rules = [s["by"] for s in steps if s["step"] == "subject" and s["entry"] == asked]
    if rules:
        return f"the subject rule {rules[-1]}"
    return "the first name written" if asked in fused["written"] else "another subject rule"


def right_entry(case: Any, steps: list[dict[str, Any]], index: SearchIndex) -> str:
    """Where the right entry stood: the meaning's rank and cosine, lexical before, pool after."""
    fused = next((s for s in steps if s["step"] == "fuse"), None)
    wanted = [index.positions[i] for i in (case.expected, *case.also) if i in index.positions]
    if not wanted or fused is None:
        return ""
    right = wanted[0]
    ranks = {e: r for r, (e, _) in enumerate(fused["similar"])}
    meaning = (
        f"meaning #{ranks[right] + 1} {fused['similar'][ranks[right]][1]:.3f}"
        if right in ranks
        else "meaning -"
    )
    before = fused["before"].get(right)
    lexical = f"{before.strategy} {before.score:.1f}" if before else "-"
    order = [e for e, _ in sorted(fused["after"].items(), key=lambda i: i[1].rank, reverse=True)]
    after = fused["after"].get(right)
    place = f"#{order.index(right) + 1} {after.score:.1f}" if after else "-"
    card = fused["after"][order[0]].score if order else 0.0
    return f"right: {meaning}, lexical {lexical}, after {place} (card {card:.1f})"


if __name__ == "__main__":
    raise SystemExit(main())
