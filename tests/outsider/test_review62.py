"""review62 (PLAN.md, "Attacks on this session's product changes (review62)"): outsider52's
reload on a daemon thread of its own, attacked; each test failing on main e680ccab first."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

import pytest

from bot.discord_app.state import BotState, Indexed
from bot.glossary import Glossary, GlossaryError, load_glossary

ENTRY = """
[[entries]]
id = "{id}"
title = "{title}"
category = "Fundamentals"
definition = "A definition of {title}."
"""


async def test_a_hup_during_a_hup_serves_the_files_as_the_last_one_found_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A maintainer adds a file of thousands of entries and sends SIGHUP; the reload embeds
    them for minutes, so the file is taken out again and SIGHUP sent again. The second
    reload, of the smaller folder, ran beside the first and ended first; the first ended
    later and swapped in the glossary of the file already taken out, served until the next
    HUP: the last reload to end won, not the last asked for. Now a reload asked while one
    is under way says so and follows it."""
    (tmp_path / "terms.toml").write_text(ENTRY.format(id="vllm", title="vLLM"), "utf-8")
    added = tmp_path / "added.toml"
    added.write_text(ENTRY.format(id="zorbic", title="Zorbic Ledger"), "utf-8")
    state = BotState(load_glossary([tmp_path]), None, [tmp_path])
    indexed, swap = BotState._indexed, BotState._swap
    first_under_way, let_first_end = threading.Event(), threading.Event()

    def slow_first(glossary: Glossary) -> Indexed:  # the first reload's embedding, held
        if "zorbic" in glossary and not first_under_way.is_set():
            first_under_way.set()
            let_first_end.wait()
        return indexed(glossary)

    def swapped(self: BotState, prepared: Indexed | GlossaryError, took: float | None) -> str:
        said = swap(self, prepared, took)
        if "zorbic" not in self.glossary:  # the second's swapped in: the first may end
            let_first_end.set()
        return said

    class Following(logging.Handler):  # or the second said it follows the first
        def emit(self, record: logging.LogRecord) -> None:
            if "under way" in record.getMessage():
                let_first_end.set()

    monkeypatch.setattr(BotState, "_indexed", staticmethod(slow_first))
    monkeypatch.setattr(BotState, "_swap", swapped)
    following = Following()
    logging.getLogger("bot.discord_app.state").addHandler(following)
    caplog.set_level(logging.INFO, logger="bot.discord_app.state")
    try:
        first = asyncio.create_task(state.reload_off_loop())
        await asyncio.to_thread(first_under_way.wait)
        added.unlink()  # taken out again, and a second HUP
        said = await asyncio.gather(first, state.reload_off_loop())
    finally:
        logging.getLogger("bot.discord_app.state").removeHandler(following)
        let_first_end.set()
    assert said == ["reloaded 2 entries", "reloaded 1 entries"], said
    assert "zorbic" not in state.glossary
    assert [r for r in caplog.records if "follows it" in r.getMessage()], caplog.records
