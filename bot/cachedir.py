"""Where derived data (entry vectors, the parsed glossary for `define`) is cached between runs."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "GLOSSARY_CACHE_DIR"


def default_cache_dir() -> Path:
    """$GLOSSARY_CACHE_DIR, else $XDG_CACHE_HOME/glossary-bot, else ~/.cache/glossary-bot."""
    chosen = os.environ.get(CACHE_ENV, "").strip()
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "glossary-bot"
