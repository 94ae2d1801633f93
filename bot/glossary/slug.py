"""Stable ids from names."""

from __future__ import annotations

import re
import unicodedata

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def slugify(name: str) -> str:
    """ "KV Cache (Key-Value Cache)" -> "kv-cache-key-value-cache"; ASCII, lowercase, hyphens."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def looks_like_acronym(text: str) -> bool:
    """ "KV", "LLM", "GGUF", "CoT", "FP16": short, no spaces, at least two capitals."""
    return (
        " " not in text
        and len(text) <= 10
        and sum(ch.isupper() for ch in text) >= 2
        and not text.isdigit()
    )
