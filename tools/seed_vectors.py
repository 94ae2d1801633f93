"""Ship the bundled glossary's entry vectors with the model, so a fresh install starts at once.

    python tools/seed_vectors.py    # after changing data/ or the model

Writes bot/search/semantic/model/entry-vectors.npz in the cache's own format, holding exactly the
bundled glossary's texts (keys are hashes of model and text: a seed made for other texts or
another model is simply not used, and only what changed since is embedded at start).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.glossary import load_glossary  # noqa: E402
from bot.search.semantic import SemanticIndex, default_cache_dir  # noqa: E402
from bot.search.semantic.vectors import (  # noqa: E402
    SEED_DIR,
    entry_texts,
    text_key,
    write_vectors,
)


def main() -> int:
    entries = list(load_glossary())
    semantic = SemanticIndex.build(entries, cache_dir=default_cache_dir())
    texts = [text for entry in entries for text in entry_texts(entry)]
    keys = [text_key(semantic.encoder.fingerprint, text) for text in texts]
    write_vectors(SEED_DIR, dict(zip(keys, semantic.vectors, strict=True)))
    print(f"wrote {SEED_DIR}: {len(keys)} vectors for {len(entries)} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
