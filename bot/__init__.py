"""Glossary Bot: answers term questions on Discord from curated glossaries."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # Looked up on first use: importlib.metadata alone costs more than `glossary-bot --help`.
    if name != "__version__":
        raise AttributeError(f"module 'bot' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("glossary-bot")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0.0.0"
