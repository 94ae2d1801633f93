"""A server's terms at its caps, as curated TOML: written by outsider round 8's tests and by
`bench/caps_bench.py` alike, so that both embed (and cache) the same terms."""

from __future__ import annotations

import random

from bot.glossary.server_terms import MAX_TERMS

SEED = 8
WORDS = (  # noqa: SIM905  (a sentence reads better than quoted words)
    "ledger shipment rota badge console firmware pallet roster quota invoice sprint dock "
    "ticket beacon relay cargo crate shift vault token forge signal ember harbor lantern "
    "quarry meadow orbit prism ridge summit tundra valley willow zenith anchor bramble"
).split()


def full_server_file(
    terms: int = MAX_TERMS, definition: int = 900, rng: random.Random | None = None
) -> bytes:
    """Curated TOML of `terms` terms of ~100-character titles and `definition` characters of
    text each: 2,000 of them hold 1.95 MiB of text, near the 2 MiB cap. `rng` (default: one
    seeded with `SEED`) is drawn from, for a caller that goes on drawing after."""
    rng = rng or random.Random(SEED)
    lines = []
    for n in range(terms):
        title = f"Zorbic Handbook Procedure {n:04d} " + " ".join(rng.choices(WORDS, k=14))
        words = " ".join(rng.choices(WORDS, k=200))[:definition].rsplit(" ", 1)[0]
        lines += [
            "[[entries]]",
            f'id = "zorbic-{n:04d}"',
            f'title = "{title[:96].strip()}"',
            'category = "Fundamentals"',
            f'definition = "The {words}."',
            "",
        ]
    return "\n".join(lines).encode()
