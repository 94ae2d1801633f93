"""Glossary Bot: answers term questions on Discord from curated glossaries."""

from __future__ import annotations

import os

# numpy's OpenBLAS starts a thread per core it sees and spins them while waiting: on a shared or
# CPU-capped host one query's embedding took 0.27 s instead of 0.05 s, and a term's 1.6 s
# instead of 0.2 s. The bot embeds in one thread beside its event loop: one BLAS thread each.
# Set before numpy loads (it reads this once); an operator's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def __getattr__(name: str) -> str:
    # Looked up on first use: importlib.metadata alone costs more than `glossary-bot --help`.
    if name != "__version__":
        raise AttributeError(f"module 'bot' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("glossary-bot")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0"
