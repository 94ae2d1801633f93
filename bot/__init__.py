"""Glossary Bot: answers term questions on Discord from curated glossaries."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("glossary-bot")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"
