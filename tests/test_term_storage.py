"""The command line's acceptance of waiting suggestions after it wrote a term or alias."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import StorageError, Store
from bot.term_storage import accept_as_operator, untold_line


async def test_a_database_failing_while_accepting_keeps_the_write_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The terms or aliases are written when the acceptance runs: a database failing then
    stops the acceptance, the rest staying in the queue as in Discord, and the output says
    so; it must not turn into the command's "error:" (an operator would think nothing was
    written)."""
    store = await Store.open(tmp_path / "g.db", flush_interval=None)
    try:
        await store.add_suggestion(5, 41, "Zorb Lax", "one member's words")
        await store.add_suggestion(5, 42, "zorb-lax", "another's")
        decide = store.decide_suggestion
        calls = 0

        async def fails_second(*args: object, **kwargs: object) -> object:
            nonlocal calls
            calls += 1
            if calls == 2:
                raise StorageError("database is locked")
            return await decide(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(store, "decide_suggestion", fails_second)
        accepted, stopped, names = await accept_as_operator(store, 5, {"zorblax": "zorb-lax"})
        assert (accepted, stopped, names) == (1, True, {"zorblax"})
        assert len(await store.open_suggestions(5, limit=10)) == 1
    finally:
        await store.close()
    assert untold_line(1, stopped=True) == (
        "\nAlso accepted 1 waiting suggestion of that name; its member was not told (the "
        "command line cannot message members). The database failed before the others of that "
        "name were accepted: they stay in the queue."
    )
    assert untold_line(0, stopped=True) == (
        "\nThe database failed before the waiting suggestions of that name were accepted: "
        "they stay in the queue."
    )
    assert untold_line(0) == ""
