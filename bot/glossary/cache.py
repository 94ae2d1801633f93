"""The loaded glossary kept on disk for one-shot commands (`define`), keyed on what made it.

The key hashes every file under the data folder (names and bytes) and the glossary package's own
code, so any change to either makes another key: a cached glossary is only ever the one a fresh
load would give. Only a load without errors is kept. The bot itself and `check` always load
afresh; a cache that cannot be read or written is passed over, as if there were none.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from bot.glossary.models import Entry, Glossary, SourceInfo, SourceNote, SourceText

FORMAT = 1  # of the cache file; part of the key
PREFIX = "glossary-"
PACKAGE = Path(__file__).resolve().parent.parent  # bot/
# The code a load runs: the glossary package and the leaves it uses.
CODE = (PACKAGE / "glossary", PACKAGE / "limits.py", PACKAGE / "errors.py")


def load_glossary_cached(folder: Path, cache_dir: Path) -> Glossary:
    """The glossary in `folder`, from the cache when nothing that made it changed."""
    from bot.glossary import load_glossary

    path = cache_dir / f"{PREFIX}{content_key(folder)}.json"
    try:
        return _from_json(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass  # none yet, or unreadable: load afresh
    glossary = load_glossary([folder])
    _store(path, glossary)
    return glossary


def content_key(folder: Path) -> str:
    """A hash of every file under `folder` and of the code that loads it (names and bytes)."""
    digest = hashlib.sha256(f"glossary cache {FORMAT} {sys.version}".encode())
    for root in (folder, *CODE):
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for file in files:
            if file.suffix == ".pyc":
                continue
            content = file.read_bytes()
            digest.update(
                f"\0{file.relative_to(root.parent).as_posix()}\0{len(content)}\0".encode()
            )
            digest.update(content)
    return digest.hexdigest()[:32]


def _store(path: Path, glossary: Glossary) -> None:
    payload = {
        "sources": [s.model_dump(mode="json") for s in glossary.sources],
        "entries": [e.model_dump(mode="json") for e in glossary],
    }
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "wb", dir=path.parent, prefix=".tmp-", suffix=".json", delete=False
        ) as out:
            try:  # ASCII-escaped: a lone surrogate from a JSON source writes too
                out.write(json.dumps(payload).encode("ascii"))
            except BaseException:
                Path(out.name).unlink()
                raise
        Path(out.name).replace(path)
        for old in path.parent.glob(f"{PREFIX}*.json"):  # earlier versions of the data
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # an unwritable cache only costs the next run a full load


def _from_json(data: dict[str, Any]) -> Glossary:
    sources = tuple(SourceInfo(**s) for s in data["sources"])
    return Glossary(tuple(_entry(e) for e in data["entries"]), sources)


def _entry(data: dict[str, Any]) -> Entry:
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    fields["notes"] = tuple(SourceNote(**n) for n in data["notes"])
    fields["sources"] = tuple(SourceText(**s) for s in data["sources"])
    return Entry(**fields)
