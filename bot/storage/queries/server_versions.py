"""Each server's own version (migration 9's `server_versions`, kept by triggers): the sum of
its alias and term versions, each of which only grows, so the sum moves on any change of the
server and on nothing else."""

from __future__ import annotations

from collections.abc import Sequence

from ..backend import Tx
from . import CHUNK, marks, scalar


async def server_version(tx: Tx, *, scope: int) -> int:
    """0 for a server never changed."""
    sql = "SELECT coalesce(sum(version), 0) FROM server_versions WHERE scope = ?"
    return await scalar(tx, sql, (scope,))


async def terms_version(tx: Tx, *, scope: int) -> int:
    """The server's term version alone (0 for terms never changed): moves on a change of its
    terms, from any process, and not on one of its aliases."""
    sql = "SELECT coalesce(sum(version), 0) FROM server_versions WHERE scope = ? AND kind = 'terms'"
    return await scalar(tx, sql, (scope,))


async def server_versions(tx: Tx, *, scopes: Sequence[int]) -> dict[int, int]:
    """The versions of these servers (0 for one never changed)."""
    found = dict.fromkeys(scopes, 0)
    ordered = sorted(found)
    for start in range(0, len(ordered), CHUNK):
        chunk = ordered[start : start + CHUNK]
        sql = (
            "SELECT scope, sum(version) FROM server_versions"
            f" WHERE scope IN ({marks(chunk)}) GROUP BY scope"
        )
        for scope, version in await tx.fetch(sql, chunk):
            found[int(scope)] = int(version)
    return found
