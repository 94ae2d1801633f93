"""left56 (PLAN.md, "Leftovers (left56)"): leftovers of left54, left55, review62 and tidy54;
each test failing on main d8c5eaf6 first."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

import pytest

from bot.discord_app.state import BotState, Indexed
from bot.glossary import Glossary, load_glossary

ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A definition of {title}."
"""


async def test_hups_waiting_on_a_long_reload_fold_into_one_of_the_newest_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A maintainer edits files during a long reload and sends SIGHUP after each edit (three):
    each waited its turn and was a full reload of its own, three more of minutes each. Now
    the ones waiting fold into one, which reads the files as the last edit left them."""
    terms = tmp_path / "terms.toml"
    terms.write_text(ENTRY.format(id="vllm", title="vLLM"), "utf-8")
    state = BotState(load_glossary([tmp_path]), None, [tmp_path])
    indexed = BotState._indexed
    loads: list[int] = []
    first_under_way, let_first_end = threading.Event(), threading.Event()

    def held_first(glossary: Glossary) -> Indexed:  # the first reload's embedding, held
        loads.append(len(glossary))
        if len(loads) == 1:
            first_under_way.set()
            let_first_end.wait()
        return indexed(glossary)

    monkeypatch.setattr(BotState, "_indexed", staticmethod(held_first))
    caplog.set_level(logging.INFO, logger="bot.discord_app.state")
    try:
        first = asyncio.create_task(state.reload_off_loop())
        await asyncio.to_thread(first_under_way.wait)
        waiting = []
        for n in range(2, 5):  # an edit, a HUP; three times
            entries = [ENTRY.format(id=f"term{i}", title=f"Term {i}") for i in range(n)]
            terms.write_text("".join(entries), "utf-8")
            waiting.append(asyncio.create_task(state.reload_off_loop()))
        let_first_end.set()  # the HUPs' tasks start before the first's end is seen
        said = await asyncio.gather(first, *waiting)
    finally:
        let_first_end.set()
    assert loads == [1, 4], loads  # the first, then one of the newest files
    assert said == ["reloaded 1 entries", *["reloaded 4 entries"] * 3], said
    assert len(state.glossary) == 4
