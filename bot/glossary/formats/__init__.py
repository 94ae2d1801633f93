"""Readers for the glossary file formats. Each turns one file into `RawEntry` records."""

from bot.glossary.formats.raw import RawEntry

__all__ = ["RawEntry"]
