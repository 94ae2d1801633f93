"""Numbered forward migrations, `V{n}__{name}.sql`, one folder per backend (`sqlite/`,
`postgres/`), applied in order at open. Both folders carry the same numbers: migration n makes
the same change on each backend, in that backend's SQL."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Literal

Dialect = Literal["sqlite", "postgres"]
_NAME = re.compile(r"^V(\d+)__(\w+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


@cache
def migrations(dialect: Dialect) -> tuple[Migration, ...]:
    """The bundled migrations of one backend, in order, numbered 1..n without gaps."""
    found: list[Migration] = []
    for resource in files(__name__).joinpath(dialect).iterdir():
        match = _NAME.match(resource.name)
        if match:
            found.append(Migration(int(match[1]), match[2], resource.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(
            f"{dialect} migrations must be numbered 1..n without gaps, found {versions}"
        )
    return tuple(found)


def latest_version(dialect: Dialect) -> int:
    return migrations(dialect)[-1].version
