"""tools/finetune_minilm.py's training rows (no torch needed): question anchors name their entry,
the other entry a comparison names is its hard negative, and a fixed seed gives the same rows."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from rapidfuzz.distance import OSA

from bot.glossary import load_glossary

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import finetune_minilm as tuning

ENTRIES = [e for e in load_glossary() if e.asked_as]
BY_ID = {e.id: e for e in ENTRIES}


def anchor_rows(seed: int) -> list[tuning.Row]:
    # Stand-in for the base model's nearest entries: the next three in the glossary.
    ids = list(BY_ID)
    neighbours = {k: [ids[(i + j) % len(ids)] for j in (1, 2, 3)] for i, k in enumerate(ids)}
    rows = tuning.build_rows(
        ENTRIES,
        neighbours,
        random.Random(seed),
        phrasing_pairs=False,
        hard_negatives=False,
        names=False,
        question_anchors_=True,
    )
    phrasings = {(e.id, p) for e in ENTRIES for p in e.asked_as}
    return [r for r in rows if (r.entry, r.anchor) not in phrasings]


def names_of(entry_id: str) -> list[str]:
    entry = BY_ID[entry_id]
    return [n.lower() for n in (entry.title, *entry.aliases)]


def written(name: str, text: str) -> bool:
    """The name is in the text, or one slip (a swap or a dropped letter) away from a part of it."""
    return name in text or any(
        OSA.distance(name, text[i : i + size]) <= 1
        for size in (len(name) - 1, len(name))
        for i in range(len(text))
    )


def test_a_typo_is_one_slip_from_the_lowercased_name() -> None:
    rng = random.Random(3)
    for entry in ENTRIES:
        slipped = tuning.typo(entry.title, rng)
        assert OSA.distance(slipped, entry.title.lower()) <= 1, (entry.title, slipped)


def test_every_anchor_names_its_entry_and_carries_another_entry_as_negative() -> None:
    rows = anchor_rows(12)
    assert len(rows) >= 4 * len(ENTRIES)
    for row in rows:
        text = row.anchor.lower()
        assert any(written(n, text) for n in names_of(row.entry)), row
        assert row.negative_entry, row
        assert row.negative_entry != row.entry, row
        assert row.positive == tuning.description_text(BY_ID[row.entry])


def test_a_comparison_names_the_entry_whose_description_is_the_negative() -> None:
    shapes = [
        re.compile(re.escape(t).replace(r"\{n\}", "(?P<n>.+)").replace(r"\{o\}", "(?P<o>.+)"))
        for t in tuning.PAIR_TEMPLATES
    ]
    compared = 0
    for row in anchor_rows(12):
        found = [m for m in (s.fullmatch(row.anchor) for s in shapes) if m]
        if found and row.negative_entry in BY_ID[row.entry].related:
            compared += 1
            assert any(m["o"] == BY_ID[row.negative_entry].title.lower() for m in found), row
    assert compared > len(ENTRIES) // 2


def test_products_name_no_entry() -> None:
    every_name = {n for e in ENTRIES for n in names_of(e.id)}
    found = [p for e in ENTRIES for p in tuning.products(e, every_name)]
    assert found, "no product names found in any entry's text"
    assert not {p.lower() for p in found} & every_name


def test_the_same_seed_gives_the_same_rows() -> None:
    assert anchor_rows(12) == anchor_rows(12)
    assert anchor_rows(12) != anchor_rows(13)
